"""Premium membership: plans, buying through both gateways, cancelling, granting, expiring."""

from datetime import timedelta
from decimal import Decimal
from urllib.parse import parse_qs, urlsplit

import pytest
from django.core import mail
from django.utils import timezone

from apps.core.testing import check_role_matrix
from apps.listings.factories import ListingFactory
from apps.payments import subscriptions
from apps.payments.models import LocalCheckoutSession, SubscriptionPayment
from apps.premium.models import Subscription, SubscriptionSource, SubscriptionStatus, SubscriptionType
from apps.premium.selectors import host_is_premium

from .conftest import WEBHOOK_SECRET
from .fake_stripe import signed_event

pytestmark = pytest.mark.django_db

SUBSCRIBE = "/api/payment/subscribe"
SUCCESS = "/api/payment/subscribe-success"
REDIRECT = "/dashboard?type=subscription&success=true&message=Payment%20successful"


def subscribe(client, plan, **overrides):
    body = {"planId": plan.plan_id, "totalAmount": str(plan.total_amount), "redirectUrl": REDIRECT, **overrides}
    return client.post(SUBSCRIBE, body, format="json")


def pay_locally(api, url: str):
    path = urlsplit(url).path
    page = api.get(path)
    assert page.status_code == 200
    return page, api.post(path + "/pay")


# --- Plans and the membership as the client reads it ----------------------------------------------


def test_plans_are_listed_with_bold_and_normal_feature_text(api, plan, clients):
    check_role_matrix(
        clients, "get", "/api/plans/get-all", allowed=["anonymous", *[a for a in clients if a != "anonymous"]]
    )
    data = api.get("/api/plans/get-all").json()["data"]
    assert data == [
        {
            "_id": str(plan.id),
            "planId": "premium-annual",
            "planName": "Premium Annual",
            "description": "Everything a busy host needs.",
            "totalAmount": "199.00",
            "interval": "year",
            "features": [
                {"bold": "Unlimited", "normal": "active listings"},
                {"bold": "Featured", "normal": "in search"},
            ],
        }
    ]


def test_a_new_host_is_free_and_only_host_side_may_read_the_membership(clients):
    check_role_matrix(clients, "get", "/api/subscription", allowed=["host", "sub_host", "other_host"])
    data = clients["sub_host"].get("/api/subscription").json()["data"]
    assert data["type"] == "free"
    assert data["premiumSubscription"] is None
    assert data["benefits"]["isPremium"] is False
    assert data["benefits"]["activeListingLimit"] == 3


def test_subscription_endpoints_role_matrix(clients, plan, local_gateway):
    body = {"planId": plan.plan_id, "totalAmount": "199.00", "redirectUrl": REDIRECT}
    check_role_matrix(clients, "post", SUBSCRIBE, allowed=["host", "sub_host", "other_host"], data=body)
    check_role_matrix(
        clients,
        "put",
        SUCCESS,
        allowed=["host", "sub_host", "other_host"],
        data={"sessionId": "cs_nothing"},
    )
    check_role_matrix(
        clients, "get", "/api/payment/get-all-host-subscription", allowed=["host", "sub_host", "other_host"]
    )


# --- Buying with the local checkout --------------------------------------------------------------


def test_host_buys_premium_through_the_local_checkout(clients, users, plan, local_gateway, api):
    response = subscribe(clients["host"], plan)
    assert response.status_code == 200, response.content
    url = response.json()["data"]["url"]
    assert "/checkout/cs_local_" in url

    page, paid = pay_locally(api, url)
    html = page.content.decode()
    assert "non refundable" in html and "deleted 15 days after the membership is cancelled" in html
    assert "$199.00" in html and "Pay" in html and "Cancel" in html

    assert paid.status_code == 302
    back = urlsplit(paid["Location"])
    query = parse_qs(back.query)
    assert back.path == "/dashboard"
    assert query["type"] == ["subscription"] and query["success"] == ["true"]
    assert query["message"] == ["Payment successful"]

    # The client confirms; confirming again changes nothing.
    for _ in range(2):
        confirmed = clients["host"].put(
            SUCCESS, {"sessionId": query["sessionId"][0], "paymentId": query["paymentId"][0]}, format="json"
        )
        assert confirmed.status_code == 200, confirmed.content
        assert confirmed.json()["data"]["type"] == "premium"

    membership = clients["sub_host"].get("/api/subscription").json()["data"]
    assert membership["type"] == "premium" and membership["status"] == "active"
    assert membership["subscriptionSource"] == "local"
    assert membership["premiumSubscription"]["plan"]["price"] == "199.00"
    assert membership["premiumSubscription"]["plan"]["interval"] == "year"
    assert host_is_premium(users["host"].pk)

    records = clients["host"].get("/api/payment/get-all-host-subscription?page=1&limit=10").json()["data"]
    assert records["totalCount"] == 1
    assert records["subscriptions"][0]["status"] == "completed"
    assert records["subscriptions"][0]["totalAmount"] == "199.00"
    assert clients["other_host"].get("/api/payment/get-all-host-subscription").json()["data"]["totalCount"] == 0

    confirmation = [
        m for m in mail.outbox if users["host"].email in m.to and "premium membership is active" in m.subject
    ]
    assert len(confirmation) == 1
    assert "non refundable" in confirmation[0].body
    assert "Premium listings are deleted 15 days after the membership is cancelled" in confirmation[0].body


def test_cancel_on_the_local_checkout_returns_with_success_false(clients, plan, local_gateway, api):
    url = subscribe(clients["host"], plan).json()["data"]["url"]
    response = api.post(urlsplit(url).path + "/cancel")
    assert response.status_code == 302
    assert parse_qs(urlsplit(response["Location"]).query)["success"] == ["false"]
    assert SubscriptionPayment.objects.get().status == "cancelled"
    assert clients["host"].get("/api/subscription").json()["data"]["type"] == "free"
    # Paying a cancelled checkout is refused.
    assert api.post(urlsplit(url).path + "/pay").status_code == 409


def test_a_sub_host_buys_for_its_host(clients, users, plan, local_gateway, api):
    url = subscribe(clients["sub_host"], plan).json()["data"]["url"]
    pay_locally(api, url)
    assert host_is_premium(users["host"].pk)
    assert SubscriptionPayment.objects.get().host == users["host"]


@pytest.mark.parametrize(
    ("overrides", "status", "field"),
    [
        ({"totalAmount": "1.00"}, 400, "totalAmount"),
        ({"totalAmount": "199.001"}, 400, "totalAmount"),
        ({"totalAmount": "-199"}, 400, "totalAmount"),
        ({"totalAmount": "abc"}, 400, "totalAmount"),
        ({"totalAmount": None}, 400, "totalAmount"),
        ({"planId": "no-such-plan"}, 404, None),
        ({"planId": "' OR 1=1 --"}, 404, None),
        ({"planId": "x" * 5000}, 400, "planId"),
        ({"redirectUrl": "https://evil.example/steal"}, 400, "redirectUrl"),
        ({"redirectUrl": "//evil.example/x"}, 400, "redirectUrl"),
        ({"redirectUrl": "javascript:alert(1)"}, 400, "redirectUrl"),
    ],
)
def test_bad_subscribe_requests_are_refused_clearly(clients, plan, local_gateway, overrides, status, field):
    response = subscribe(clients["host"], plan, **overrides)
    assert response.status_code == status, response.content
    body = response.json()
    assert body["message"]
    if field:
        assert field in body["errors"]
    assert not LocalCheckoutSession.objects.exists()


def test_tampered_amount_message_names_the_real_price(clients, plan, local_gateway):
    response = subscribe(clients["host"], plan, totalAmount="0.01")
    assert response.json()["message"] == "The amount does not match the price of Premium Annual ($199.00)."


def test_malformed_json_is_a_400(clients, plan, local_gateway):
    response = clients["host"].generic("POST", SUBSCRIBE, "{not json", content_type="application/json")
    assert response.status_code == 400


def test_an_active_member_cannot_buy_twice_and_a_foreign_session_is_hidden(clients, plan, local_gateway, api):
    url = subscribe(clients["host"], plan).json()["data"]["url"]
    pay_locally(api, url)
    assert subscribe(clients["host"], plan).status_code == 409
    session_id = urlsplit(url).path.rsplit("/", 1)[-1]
    assert clients["other_host"].put(SUCCESS, {"sessionId": session_id}, format="json").status_code == 404
    assert clients["host"].put(SUCCESS, {"sessionId": "cs_unknown"}, format="json").status_code == 404
    wrong = clients["host"].put(
        SUCCESS, {"sessionId": session_id, "paymentId": "00000000-0000-0000-0000-000000000000"}, format="json"
    )
    assert wrong.status_code == 400


def test_confirming_an_unpaid_checkout_is_refused(clients, plan, local_gateway):
    subscribe(clients["host"], plan)
    session = LocalCheckoutSession.objects.get()
    response = clients["host"].put(SUCCESS, {"sessionId": session.id}, format="json")
    assert response.status_code == 409
    assert clients["host"].get("/api/subscription").json()["data"]["type"] == "free"


# --- Cancelling ----------------------------------------------------------------------------------


def _premium(host, plan, source=SubscriptionSource.LOCAL, *, days_left=300):
    now = timezone.now()
    return Subscription.objects.update_or_create(
        host=host,
        defaults={
            "type": SubscriptionType.PREMIUM,
            "status": SubscriptionStatus.ACTIVE,
            "subscription_source": source,
            "plan": plan,
            "start_date": now - timedelta(days=365 - days_left),
            "next_billing_date": now + timedelta(days=days_left),
        },
    )[0]


def test_cancel_role_matrix_and_message(clients, users, plan):
    subscription = _premium(users["host"], plan)
    url = f"/api/subscription/cancel/{subscription.id}"
    statuses = check_role_matrix(
        clients, "post", url, allowed=["host", "sub_host", "admin"], hidden_status=(403, 404, 409)
    )
    assert statuses["other_host"] == 404
    subscription.refresh_from_db()
    assert subscription.status == "cancelled"


def test_host_cancels_and_is_warned_that_premium_listings_go_in_15_days(clients, users, plan):
    subscription = _premium(users["host"], plan)
    response = clients["host"].post(f"/api/subscription/cancel/{subscription.id}")
    assert response.status_code == 200
    assert "non refundable" in response.json()["message"]
    assert "15 days after cancellation" in response.json()["message"]
    data = clients["host"].get("/api/subscription").json()["data"]
    assert data["status"] == "cancelled" and data["premiumListingsDeletionDate"]
    warning = [m for m in mail.outbox if "will be deleted" in m.subject]
    assert len(warning) == 1 and "15 days" in warning[0].body
    # Cancelling twice is refused, and an unknown or malformed id is a 404.
    assert clients["host"].post(f"/api/subscription/cancel/{subscription.id}").status_code == 409
    assert clients["host"].post("/api/subscription/cancel/not-a-uuid").status_code == 404


def test_premium_listings_are_deleted_15_days_after_cancellation_once(users, plan, django_capture_on_commit_callbacks):
    subscription = _premium(users["host"], plan)
    premium_listing = ListingFactory(host=users["host"], is_premium=True)
    plain_listing = ListingFactory(host=users["host"], is_premium=False)
    other = ListingFactory(host=users["other_host"], is_premium=True)
    with django_capture_on_commit_callbacks(execute=True):
        subscriptions.subscription_cancel(subscription=subscription, by=users["host"])
    cancelled_at = Subscription.objects.get().cancelled_at
    mail.outbox.clear()

    with django_capture_on_commit_callbacks(execute=True):
        assert subscriptions.premium_listings_due(now=cancelled_at + timedelta(days=11)) == (0, 0)
        assert subscriptions.premium_listings_due(now=cancelled_at + timedelta(days=12, minutes=1)) == (1, 0)
        assert subscriptions.premium_listings_due(now=cancelled_at + timedelta(days=13)) == (0, 0)
    assert len([m for m in mail.outbox if "will be deleted" in m.subject]) == 1
    assert "3 days" in mail.outbox[0].body

    premium_listing.refresh_from_db()
    assert not premium_listing.is_deleted
    assert subscriptions.premium_listings_due(now=cancelled_at + timedelta(days=15, minutes=1)) == (0, 1)
    assert subscriptions.premium_listings_due(now=cancelled_at + timedelta(days=16)) == (0, 0)
    for listing in (premium_listing, plain_listing, other):
        listing.refresh_from_db()
    assert premium_listing.is_deleted and premium_listing.deleted_at is not None
    assert not plain_listing.is_deleted and not other.is_deleted


def test_buying_again_within_15_days_keeps_premium_listings(clients, users, plan, local_gateway, api):
    subscription = _premium(users["host"], plan)
    listing = ListingFactory(host=users["host"], is_premium=True)
    subscriptions.subscription_cancel(subscription=subscription, by=users["host"])
    pay_locally(api, subscribe(clients["host"], plan).json()["data"]["url"])
    subscriptions.premium_listings_due(now=timezone.now() + timedelta(days=20))
    listing.refresh_from_db()
    assert not listing.is_deleted
    assert Subscription.objects.get().status == "active"


# --- Expiry and renewal --------------------------------------------------------------------------


def test_memberships_past_their_billing_date_expire_once_and_can_be_renewed(clients, users, plan, local_gateway, api):
    subscription = _premium(users["host"], plan, days_left=1)
    assert subscriptions.subscriptions_expire_due() == 0
    later = timezone.now() + timedelta(days=2)
    assert subscriptions.subscriptions_expire_due(now=later) == 1
    assert subscriptions.subscriptions_expire_due(now=later) == 0
    subscription.refresh_from_db()
    assert subscription.status == "expired" and not host_is_premium(users["host"].pk)

    # Renew: the same checkout, from expired back to active for a new year.
    subscription.next_billing_date = timezone.now() - timedelta(minutes=1)
    subscription.save()
    pay_locally(api, subscribe(clients["host"], plan).json()["data"]["url"])
    subscription.refresh_from_db()
    assert subscription.status == "active"
    assert subscription.next_billing_date > timezone.now() + timedelta(days=364)


# --- Admin-given premium -------------------------------------------------------------------------


def test_admin_gives_premium_and_the_host_upgrades_to_paid(clients, users, plan, local_gateway, api):
    url = f"/api/subscription/grant/{users['host'].id}"
    check_role_matrix(clients, "post", url, allowed=["admin"])
    data = clients["host"].get("/api/subscription").json()["data"]
    assert data["type"] == "premium" and data["subscriptionSource"] == "admin"
    assert clients["admin"].post(f"/api/subscription/grant/{users['renter'].id}").status_code == 404

    # The Upgrade option: an admin-given member may buy the paid plan.
    pay_locally(api, subscribe(clients["host"], plan).json()["data"]["url"])
    data = clients["host"].get("/api/subscription").json()["data"]
    assert data["subscriptionSource"] == "local" and data["status"] == "active"


# --- Stripe, through the SDK and the fake server -------------------------------------------------


def _webhook(api, event_type, obj, **kwargs):
    payload, header = signed_event(event_type, obj, secret=WEBHOOK_SECRET, **kwargs)
    return api.generic(
        "POST", "/api/payment/webhook", payload, content_type="application/json", HTTP_STRIPE_SIGNATURE=header
    )


def test_stripe_subscription_checkout_sends_the_plan_price_and_terms(clients, plan, fake_stripe):
    response = subscribe(clients["host"], plan)
    assert response.status_code == 200, response.content
    assert response.json()["data"]["url"].startswith("https://checkout.stripe.test/")
    [sent] = fake_stripe.calls("POST", "/v1/checkout/sessions")
    assert sent["mode"] == "subscription"
    assert sent["line_items[0][price_data][unit_amount]"] == "19900"
    assert sent["line_items[0][price_data][recurring][interval]"] == "year"
    assert "non refundable" in sent["custom_text[submit][message]"]
    assert sent["success_url"].endswith("&sessionId={CHECKOUT_SESSION_ID}")
    assert sent["metadata[purpose]"] == "subscription"


def test_stripe_provider_failure_is_a_clear_502(clients, plan, fake_stripe):
    fake_stripe.fail_next = {"status": 400, "type": "invalid_request_error", "message": "boom"}
    response = subscribe(clients["host"], plan)
    assert response.status_code == 502
    assert "payment provider" in response.json()["message"]
    assert not SubscriptionPayment.objects.exists()


def test_stripe_subscription_lifecycle_through_webhooks(clients, users, plan, fake_stripe, api):
    subscribe(clients["host"], plan)
    record = SubscriptionPayment.objects.get()
    session = fake_stripe.complete_session(record.session_id)

    # checkout.session.completed, delivered twice.
    first = _webhook(api, "checkout.session.completed", session, event_id="evt_1")
    again = _webhook(api, "checkout.session.completed", session, event_id="evt_1")
    assert first.status_code == 200 and first.json()["data"]["applied"] is True
    assert again.status_code == 200 and again.json()["data"]["applied"] is False
    subscription = Subscription.objects.get()
    assert subscription.is_premium_now and subscription.subscription_source == "stripe"
    assert subscription.gateway_subscription_id == session["subscription"]
    # The browser's confirmation after the webhook changes nothing.
    ok = clients["host"].put(SUCCESS, {"sessionId": session["id"], "paymentId": str(record.id)}, format="json")
    assert ok.status_code == 200
    assert SubscriptionPayment.objects.filter(status="completed").count() == 1
    assert len([m for m in mail.outbox if "premium membership is active" in m.subject]) == 1

    # A renewal invoice, twice: one record, one year more.
    period_end = int((subscription.next_billing_date + timedelta(days=365)).timestamp())
    invoice = {
        "id": "in_renewal_1",
        "object": "invoice",
        "subscription": session["subscription"],
        "billing_reason": "subscription_cycle",
        "amount_paid": 19900,
        "lines": {"data": [{"period": {"start": 0, "end": period_end}}]},
    }
    for _ in range(2):
        assert _webhook(api, "invoice.paid", invoice, event_id="evt_inv").status_code == 200
    _webhook(api, "invoice.paid", invoice, event_id="evt_inv_redelivered_with_new_id")
    assert SubscriptionPayment.objects.filter(status="completed").count() == 2
    subscription.refresh_from_db()
    assert int(subscription.next_billing_date.timestamp()) == period_end

    # Deleted, then an older "updated: active" arrives late: it stays cancelled.
    now = int(timezone.now().timestamp())
    sub_obj = {"id": session["subscription"], "object": "subscription", "status": "canceled"}
    _webhook(api, "customer.subscription.deleted", sub_obj, event_id="evt_del", created=now)
    stale = {**sub_obj, "status": "active", "current_period_end": period_end + 999}
    late = _webhook(api, "customer.subscription.updated", stale, event_id="evt_upd_old", created=now - 60)
    assert late.json()["message"] == "stale event ignored"
    subscription.refresh_from_db()
    assert subscription.status == "cancelled"
    assert int(subscription.next_billing_date.timestamp()) == period_end


def test_stripe_cancel_cancels_at_stripe(clients, users, plan, fake_stripe, api):
    subscribe(clients["host"], plan)
    record = SubscriptionPayment.objects.get()
    session = fake_stripe.complete_session(record.session_id)
    _webhook(api, "checkout.session.completed", session)
    subscription = Subscription.objects.get()
    assert clients["host"].post(f"/api/subscription/cancel/{subscription.id}").status_code == 200
    assert fake_stripe.objects[session["subscription"]]["status"] == "canceled"
    assert fake_stripe.calls("DELETE", f"/v1/subscriptions/{session['subscription']}")


@pytest.mark.parametrize(
    "header",
    [None, "", "t=1,v1=deadbeef", "garbage", "t=notanumber,v1=x"],
)
def test_webhooks_with_bad_signatures_are_refused(api, fake_stripe, header):
    extra = {"HTTP_STRIPE_SIGNATURE": header} if header is not None else {}
    response = api.generic(
        "POST", "/api/payment/webhook", '{"id": "evt_x", "type": "invoice.paid"}', "application/json", **extra
    )
    assert response.status_code == 400
    assert response.json()["message"]


def test_webhook_signed_with_another_secret_is_refused(api, fake_stripe):
    payload, header = signed_event("invoice.paid", {"id": "in_1"}, secret="whsec_other")
    response = api.generic(
        "POST", "/api/payment/webhook", payload, content_type="application/json", HTTP_STRIPE_SIGNATURE=header
    )
    assert response.status_code == 400


def test_unknown_event_types_are_stored_and_ignored(api, fake_stripe):
    response = _webhook(api, "customer.created", {"id": "cus_1"}, event_id="evt_cus")
    assert response.status_code == 200
    assert response.json()["message"].startswith("ignored")


def test_a_checkout_paid_for_a_different_amount_is_not_applied(clients, plan, fake_stripe, api):
    subscribe(clients["host"], plan)
    record = SubscriptionPayment.objects.get()
    session = fake_stripe.complete_session(record.session_id)
    session["amount_total"] = 100  # someone fiddled with the price at the provider
    response = _webhook(api, "checkout.session.completed", session)
    assert response.status_code == 200
    assert response.json()["message"].startswith("refused")
    assert Subscription.objects.get().type == "free"


def test_membership_amount_is_decimal(plan):
    assert plan.total_amount == Decimal("199.00")
