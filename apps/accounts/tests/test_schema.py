"""The account and membership responses pages read match their OpenAPI components exactly."""

import pytest

from apps.core.schema_check import check
from apps.payments import subscriptions
from apps.premium.models import Plan

pytestmark = pytest.mark.django_db


def test_user_responses_match_the_schema(clients, users):
    check("MeResponse", clients["host"].get("/api/user/me").json())
    check("RenterList", clients["admin"].get("/api/user/renters").json())
    check("HostList", clients["moderator"].get("/api/user/hosts").json())
    check("SubHostList", clients["host"].get("/api/user/sub-hosts").json())
    response = clients["admin"].get(f"/api/user/view-user/{users['host'].pk}")
    assert response.status_code == 200, response.content
    check("ViewUserResponse", response.json())
    public = clients["renter"].get(f"/api/user/view-user/{users['host'].pk}").json()
    assert "email" not in public["data"]
    check("ViewUserResponse", public)
    check("VerificationRequestList", clients["admin"].get("/api/user/verification-requests").json())


def test_membership_responses_match_the_schema(clients, users):
    Plan.objects.create(
        plan_id="premium-annual",
        plan_name="Premium",
        total_amount="199.00",
        interval="year",
        features=[{"bold": "Unlimited", "normal": "active listings"}],
    )
    check("PlanList", clients["host"].get("/api/plans/get-all").json())
    check("SubscriptionDetailResponse", clients["host"].get("/api/subscription").json())
    subscription = subscriptions.subscription_grant(host=users["host"], by=users["admin"])
    body = clients["host"].get("/api/subscription").json()
    assert body["data"]["premiumSubscription"]["status"] == "active"
    check("SubscriptionDetailResponse", body)
    subscriptions.subscription_cancel(subscription=subscription, by=users["host"])
    body = clients["host"].get("/api/subscription").json()
    assert body["data"]["premiumListingsDeletionDate"] is not None
    check("SubscriptionDetailResponse", body)
    # The host reads who started and who cancelled the membership, and why.
    history = [
        (row["fromStatus"], row["toStatus"], row["actor"] and row["actor"]["role"])
        for row in body["data"]["statusHistory"]
    ]
    assert history[-1] == ("active", "cancelled", "host")
    assert body["data"]["statusHistory"][-1]["reason"] == "Cancelled"
