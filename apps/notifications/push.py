"""Browser push (Web Push with VAPID): the server's keys, and sending one message to one subscription.

Keys come from the environment (VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY: base64url, as
``npx web-push generate-vapid-keys`` or ``vapid --gen`` print them; VAPID_SUBJECT a mailto: or
https: contact). Production requires them (``check --deploy`` fails without); elsewhere a
development key pair is generated once into ``<DATA_DIR>/vapid.json`` so pushes work on a fresh
machine.
"""

import base64
import json
import logging
import os
from functools import lru_cache
from pathlib import Path

from django.conf import settings

logger = logging.getLogger(__name__)

PUSH_TIMEOUT_SECONDS = 10
PUSH_TTL_SECONDS = 24 * 3600


class SubscriptionGone(Exception):
    """The push service says the subscription no longer exists (404 or 410)."""


class PushFailed(Exception):
    """Any other failure (network, 5xx, 429): worth trying again later."""


def _b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def _generate() -> dict[str, str]:
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec

    key = ec.generate_private_key(ec.SECP256R1())
    private = key.private_numbers().private_value.to_bytes(32, "big")
    public = key.public_key().public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    return {"publicKey": _b64url(public), "privateKey": _b64url(private)}


@lru_cache(maxsize=1)
def vapid_keys() -> dict[str, str]:
    public, private = os.environ.get("VAPID_PUBLIC_KEY", ""), os.environ.get("VAPID_PRIVATE_KEY", "")
    if public and private:
        return {"publicKey": public, "privateKey": private}
    if getattr(settings, "PRODUCTION", False):
        # Every container must sign with the same keys, and none may sit on an image's disk.
        raise RuntimeError("Set VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY in production.")
    path = Path(settings.DATA_DIR) / "vapid.json"
    try:
        keys = json.loads(path.read_text())
        if keys.get("publicKey") and keys.get("privateKey"):
            return keys
    except (OSError, ValueError):
        pass
    keys = _generate()
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(keys))
    os.chmod(tmp, 0o600)
    tmp.replace(path)
    logger.warning("Generated development VAPID keys in %s; set VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY", path)
    return keys


def vapid_subject() -> str:
    return os.environ.get("VAPID_SUBJECT") or "mailto:" + settings.DEFAULT_FROM_EMAIL.rsplit("<", 1)[-1].rstrip(">")


def send_push(subscription_info: dict, payload: dict) -> int:
    """Encrypt and send ``payload`` (JSON) to one subscription; returns the push service's status."""
    from py_vapid import Vapid
    from pywebpush import WebPushException, webpush

    try:
        response = webpush(
            subscription_info=subscription_info,
            data=json.dumps(payload),
            vapid_private_key=Vapid.from_raw(vapid_keys()["privateKey"].encode()),
            vapid_claims={"sub": vapid_subject()},
            ttl=PUSH_TTL_SECONDS,
            timeout=PUSH_TIMEOUT_SECONDS,
        )
    except WebPushException as exc:
        status = getattr(exc.response, "status_code", None)
        if status in (404, 410):
            raise SubscriptionGone(str(status)) from exc
        raise PushFailed(f"push service answered {status}") from exc
    except Exception as exc:  # connection refused, timeout, bad keys of the subscription
        raise PushFailed(str(exc)[:200]) from exc
    return response.status_code
