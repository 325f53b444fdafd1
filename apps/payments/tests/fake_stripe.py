"""A small Stripe stand-in on 127.0.0.1 for tests: the real SDK talks HTTP to it.

It answers the endpoints the gateway uses, keeps the objects it made, and records every request
(method, path, form parameters) so a test can assert what the SDK sent.
"""

import itertools
import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qsl, urlsplit

import stripe


class FakeStripe:
    def __init__(self) -> None:
        self.objects: dict[str, dict] = {}
        self.requests: list[tuple[str, str, dict]] = []
        self._ids = itertools.count(1)
        self.fail_next: dict | None = None
        # Failures to answer before succeeding: [(path fragment, times left, status, error)].
        self.failures: list[list] = []
        # Answers by Idempotency-Key, as Stripe keeps them: a repeated POST gets the first answer.
        self.idempotent: dict[str, tuple[int, dict]] = {}
        self.replayed: list[str] = []
        # A path fragment whose answer waits until ``release_held`` (the request is already done).
        self.hold_path: str | None = None
        self.held = threading.Event()
        self.release_held = threading.Event()
        self._lock = threading.Lock()
        # Off-session charges (a saved card, the customer away) need the customer: 3-D Secure.
        self.require_authentication = False
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):  # quiet
                pass

            def _answer(self, method: str) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length).decode() if length else ""
                parts = urlsplit(self.path)
                params = dict(parse_qsl(body or parts.query, keep_blank_values=True))
                key = self.headers.get("Idempotency-Key") if method == "POST" else None
                with fake._lock:
                    if key and key in fake.idempotent:
                        fake.replayed.append(key)
                        status, payload = fake.idempotent[key]
                    else:
                        fake.requests.append((method, parts.path, params))
                        status, payload = fake.route(method, parts.path, params)
                        if key and status < 500:
                            fake.idempotent[key] = (status, payload)
                if fake.hold_path and fake.hold_path in parts.path:
                    fake.held.set()
                    fake.release_held.wait(30)
                data = json.dumps(payload).encode()
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    self.send_header("Request-Id", f"req_{next(fake._ids)}")
                    if status >= 500:
                        self.send_header("Stripe-Should-Retry", "false")
                    self.end_headers()
                    self.wfile.write(data)
                except OSError:  # the caller went away (a killed worker)
                    pass

            def do_GET(self):
                self._answer("GET")

            def do_POST(self):
                self._answer("POST")

            def do_DELETE(self):
                self._answer("DELETE")

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    def start(self) -> "FakeStripe":
        self.thread.start()
        return self

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()

    def new_id(self, prefix: str) -> str:
        return f"{prefix}_test_{next(self._ids)}"

    def calls(self, method: str, path_prefix: str) -> list[dict]:
        return [p for m, path, p in self.requests if m == method and path.startswith(path_prefix)]

    # --- Routes ------------------------------------------------------------------------------

    def fail(self, path_fragment: str, times: int, *, status: int = 500) -> None:
        """The next ``times`` requests whose path contains ``path_fragment`` fail (then they succeed)."""
        error = {"type": "api_error", "message": "An error occurred with our connection to Stripe."}
        self.failures.append([path_fragment, times, status, error])

    def route(self, method: str, path: str, params: dict) -> tuple[int, dict]:
        if self.fail_next is not None:
            error, self.fail_next = self.fail_next, None
            return error.get("status", 402), {"error": error}
        for rule in self.failures:
            if rule[0] in path and rule[1] > 0:
                rule[1] -= 1
                return rule[2], {"error": rule[3]}
        segments = path.strip("/").split("/")[1:]  # drop "v1"
        if segments[:2] == ["checkout", "sessions"]:
            if method == "POST" and len(segments) == 2:
                return 200, self._create_session(params)
            return self._get(segments[2])
        if segments == ["payment_intents"] and method == "POST":
            return self._create_intent(params)
        if segments[0] == "payment_intents" and len(segments) >= 2:
            intent = self.objects.get(segments[1])
            if intent is None:
                return self._missing(segments[1])
            if len(segments) == 3 and segments[2] == "capture":
                if intent["status"] != "requires_capture":
                    return 400, {
                        "error": {
                            "type": "invalid_request_error",
                            "message": "This PaymentIntent could not be captured.",
                        }
                    }
                amount = int(params.get("amount_to_capture") or intent["amount"])
                intent.update(status="succeeded", amount_received=amount, amount_capturable=0)
            elif len(segments) == 3 and segments[2] == "cancel":
                intent.update(status="canceled", amount_capturable=0)
            return 200, intent
        if segments == ["refunds"] and method == "POST":
            refund = {
                "id": self.new_id("re"),
                "object": "refund",
                "amount": int(params["amount"]),
                "payment_intent": params.get("payment_intent"),
                "status": "succeeded",
            }
            self.objects[refund["id"]] = refund
            return 200, refund
        if segments == ["transfers"] and method == "POST":
            transfer = {
                "id": self.new_id("tr"),
                "object": "transfer",
                "amount": int(params["amount"]),
                "currency": params.get("currency"),
                "destination": params.get("destination"),
            }
            self.objects[transfer["id"]] = transfer
            return 200, transfer
        if segments[0] == "subscriptions" and len(segments) == 2:
            subscription = self.objects.get(segments[1])
            if subscription is None:
                return self._missing(segments[1])
            if method == "DELETE":
                subscription["status"] = "canceled"
            return 200, subscription
        return 404, {"error": {"type": "invalid_request_error", "message": f"Unrecognized request URL ({path})."}}

    def _create_intent(self, params: dict) -> tuple[int, dict]:
        """A charge confirmed at once (``confirm=true``), e.g. a saved card off-session."""
        intent = {
            "id": self.new_id("pi"),
            "object": "payment_intent",
            "amount": int(params["amount"]),
            "customer": params.get("customer"),
            "payment_method": params.get("payment_method"),
            "off_session": params.get("off_session") == "true",
            "capture_method": "automatic",
        }
        if intent["off_session"] and self.require_authentication:
            intent.update(status="requires_action", amount_received=0)
            self.objects[intent["id"]] = intent
            return 402, {
                "error": {
                    "type": "card_error",
                    "code": "authentication_required",
                    "message": "This payment requires authentication.",
                    "payment_intent": intent,
                }
            }
        intent.update(status="succeeded", amount_received=intent["amount"], amount_capturable=0)
        self.objects[intent["id"]] = intent
        return 200, intent

    def _get(self, object_id: str) -> tuple[int, dict]:
        obj = self.objects.get(object_id)
        return (200, obj) if obj is not None else self._missing(object_id)

    def _missing(self, object_id: str) -> tuple[int, dict]:
        return 404, {"error": {"type": "invalid_request_error", "message": f"No such object: '{object_id}'"}}

    def _create_session(self, params: dict) -> dict:
        session_id = self.new_id("cs")
        metadata = {k[len("metadata[") : -1]: v for k, v in params.items() if k.startswith("metadata[")}
        session = {
            "id": session_id,
            "object": "checkout.session",
            "url": f"https://checkout.stripe.test/c/pay/{session_id}",
            "mode": params.get("mode"),
            "status": "open",
            "payment_status": "unpaid",
            "amount_total": int(params["line_items[0][price_data][unit_amount]"]),
            "currency": params.get("line_items[0][price_data][currency]"),
            "client_reference_id": params.get("client_reference_id"),
            "metadata": metadata,
            "success_url": params.get("success_url"),
            "cancel_url": params.get("cancel_url"),
            "payment_intent": None,
            "subscription": None,
            "customer": None,
            "invoice": None,
            "_capture_method": params.get("payment_intent_data[capture_method]", "automatic"),
            "_save_card": params.get("payment_intent_data[setup_future_usage]") == "off_session",
        }
        self.objects[session_id] = session
        return session

    # --- What the customer does on Stripe's page -------------------------------------------

    def complete_session(self, session_id: str) -> dict:
        """The customer pays: the session completes and its intent or subscription appears."""
        session = self.objects[session_id]
        session["status"] = "complete"
        session["customer"] = self.new_id("cus")
        if session["mode"] == "subscription":
            subscription_id = self.new_id("sub")
            self.objects[subscription_id] = {"id": subscription_id, "object": "subscription", "status": "active"}
            session.update(subscription=subscription_id, payment_status="paid", invoice=self.new_id("in"))
        else:
            intent_id = self.new_id("pi")
            manual = session["_capture_method"] == "manual"
            self.objects[intent_id] = {
                "id": intent_id,
                "object": "payment_intent",
                "amount": session["amount_total"],
                "amount_capturable": session["amount_total"] if manual else 0,
                "amount_received": 0 if manual else session["amount_total"],
                "status": "requires_capture" if manual else "succeeded",
                "capture_method": session["_capture_method"],
                "customer": session["customer"],
                "payment_method": self.new_id("pm"),
                "setup_future_usage": "off_session" if session["_save_card"] else None,
            }
            session.update(payment_intent=intent_id, payment_status="unpaid" if manual else "paid")
        return session


def signed_event(event_type: str, obj: dict, *, secret: str, event_id: str | None = None, created: int | None = None):
    """A webhook body and its Stripe-Signature header, signed with the SDK's own helper."""
    import time

    created = created or int(time.time())
    payload = json.dumps(
        {
            "id": event_id or f"evt_{event_type.replace('.', '_')}_{created}_{obj.get('id', '')}",
            "object": "event",
            "type": event_type,
            "created": created,
            "api_version": stripe.api_version,
            "data": {"object": obj},
        }
    )
    header = stripe.WebhookSignature.generate_signature_header(payload, secret)
    return payload, header
