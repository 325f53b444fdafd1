"""Payments API (spec section 7, Subscription and payment; Payments). Views stay thin."""

from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.parsers import BaseParser
from rest_framework.permissions import AllowAny
from rest_framework.views import APIView

from apps.accounts.models import Role, User
from apps.core.api import ERROR_ENVELOPE, envelope, enveloped, enveloped_page, page_response, paginate
from apps.core.exceptions import NotFound
from apps.core.permissions import AdminOnly, HostOrSubHost

from . import subscriptions, webhooks
from .models import Plan, SubscriptionPayment, SubscriptionPaymentStatus
from .serializers import (
    GrantPremiumInput,
    HostSubscriptionPaymentSerializer,
    PlanSerializer,
    SubscribeInput,
    SubscribeResult,
    SubscribeSuccessInput,
    SubscriptionSerializer,
)

ERRORS = dict.fromkeys((400, 401, 403, 404, 409, 502), ERROR_ENVELOPE)


# --- Premium membership --------------------------------------------------------------------------


class PlanListView(APIView):
    """The membership plans; public, so the become-a-host page can show the price too."""

    authentication_classes: list = []
    permission_classes = [AllowAny]

    @extend_schema(responses={200: enveloped("PlanList", PlanSerializer(many=True))})
    def get(self, request):
        plans = Plan.objects.filter(is_active=True)
        return envelope(PlanSerializer(plans, many=True).data)


class SubscriptionView(APIView):
    permission_classes = [HostOrSubHost]

    @extend_schema(responses={200: enveloped("SubscriptionResponse", SubscriptionSerializer()), **ERRORS})
    def get(self, request):
        host = subscriptions.acting_host(request.user)
        subscription = subscriptions.subscription_get_or_create(host=host)
        subscription = type(subscription).objects.select_related("plan").get(pk=subscription.pk)
        return envelope(SubscriptionSerializer(subscription).data)


class SubscribeView(APIView):
    permission_classes = [HostOrSubHost]

    @extend_schema(request=SubscribeInput, responses={200: enveloped("SubscribeResponse", SubscribeResult()), **ERRORS})
    def post(self, request):
        data = SubscribeInput(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        url, record = subscriptions.subscription_checkout_start(
            user=request.user,
            plan_id=values["planId"],
            total_amount=values["totalAmount"],
            redirect_url=values["redirectUrl"],
        )
        return envelope({"url": url, "paymentId": str(record.id)}, "Redirecting to the payment page.")


class SubscribeSuccessView(APIView):
    permission_classes = [HostOrSubHost]

    @extend_schema(
        request=SubscribeSuccessInput,
        responses={200: enveloped("SubscribeSuccessResponse", SubscriptionSerializer()), **ERRORS},
    )
    def put(self, request):
        data = SubscribeSuccessInput(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        record = subscriptions.subscription_checkout_confirm(
            session_id=values["sessionId"],
            payment_id=str(values["paymentId"]) if values.get("paymentId") else None,
            user=request.user,
        )
        subscription = type(record.subscription).objects.select_related("plan").get(pk=record.subscription_id)
        return envelope(SubscriptionSerializer(subscription).data, "Payment successful")


class HostSubscriptionPaymentListView(APIView):
    permission_classes = [HostOrSubHost]

    @extend_schema(
        responses={
            200: enveloped_page("HostSubscriptionPayments", "subscriptions", HostSubscriptionPaymentSerializer),
            **ERRORS,
        }
    )
    def get(self, request):
        host = subscriptions.acting_host(request.user)
        records = SubscriptionPayment.objects.filter(
            host=host, status=SubscriptionPaymentStatus.COMPLETED
        ).select_related("plan")
        return page_response(paginate(request, records), HostSubscriptionPaymentSerializer, "subscriptions")


class SubscriptionCancelView(APIView):
    permission_classes = [HostOrSubHost | AdminOnly]

    @extend_schema(
        request=None, responses={200: enveloped("SubscriptionCancelResponse", SubscriptionSerializer()), **ERRORS}
    )
    def post(self, request, id):
        subscription = subscriptions.subscription_get_for(user=request.user, id=id)
        subscription = subscriptions.subscription_cancel(subscription=subscription, by=request.user)
        return envelope(SubscriptionSerializer(subscription).data, subscriptions.cancel_message(subscription))


class SubscriptionGrantView(APIView):
    """An admin gives a host premium (subscriptionSource admin); the host can later upgrade to paid."""

    permission_classes = [AdminOnly]

    @extend_schema(
        request=GrantPremiumInput, responses={200: enveloped("GrantResponse", SubscriptionSerializer()), **ERRORS}
    )
    def post(self, request, host_id):
        data = GrantPremiumInput(data=request.data or {})
        data.is_valid(raise_exception=True)
        host = User.objects.filter(pk=host_id, role=Role.HOST, is_deleted=False).first()
        if host is None:
            raise NotFound("This host was not found.")
        subscription = subscriptions.subscription_grant(
            host=host, by=request.user, until=data.validated_data.get("nextBillingDate")
        )
        return envelope(SubscriptionSerializer(subscription).data, "Premium membership given.")


# --- Webhooks ------------------------------------------------------------------------------------


class RawBodyParser(BaseParser):
    media_type = "*/*"

    def parse(self, stream, media_type=None, parser_context=None):
        return stream.read() if stream else b""


class WebhookView(APIView):
    """Stripe calls this; the signature header is the authentication."""

    authentication_classes: list = []
    permission_classes = [AllowAny]
    parser_classes = [RawBodyParser]

    @extend_schema(
        request={"application/json": {"type": "object"}},
        responses={
            200: enveloped(
                "WebhookResponse",
                inline_serializer(
                    "WebhookResult", {"id": serializers.CharField(), "applied": serializers.BooleanField()}
                ),
            ),
            400: ERROR_ENVELOPE,
        },
    )
    def post(self, request):
        body = request.data if isinstance(request.data, bytes) else request.body
        event, applied = webhooks.webhook_receive(payload=body, signature=request.headers.get("Stripe-Signature"))
        message = event.outcome if applied else "Already processed."
        return envelope({"id": event.id, "applied": applied}, message)
