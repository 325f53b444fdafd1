"""Payments API (spec section 7, Subscription and payment; Payments). Views stay thin."""

from django.http import HttpResponse
from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.parsers import BaseParser
from rest_framework.permissions import AllowAny
from rest_framework.views import APIView

from apps.core.access import Area
from apps.core.api import (
    ERROR_ENVELOPE,
    envelope,
    enveloped,
    enveloped_page,
    page_response,
    paginate,
    parse_filters,
)
from apps.core.exceptions import InvalidInput, NotFound
from apps.core.permissions import AdminOnly, HostOnly, HostOrSubHost, RenterOnly, area_permission, role_permission
from apps.core.serializers import StatusChangeSchema
from apps.core.statemachine import history, history_payload

from . import payouts, selectors, services, subscriptions, webhooks
from .policies import MONEY_RECORD_ROLES, payout_request_refusal
from .policies import MONEY_ROLES as MONEY_ROLE_NAMES
from .serializers import (
    BalanceSerializer,
    CheckoutInput,
    CheckoutResult,
    GrantPremiumInput,
    HostSubscriptionPaymentSerializer,
    InvoiceSerializer,
    PaymentSerializer,
    PayoutSerializer,
    PayoutStatusInput,
    PlanSerializer,
    SubscribeInput,
    SubscribeResult,
    SubscribeSuccessInput,
    SubscriptionDetailSerializer,
    SubscriptionSerializer,
)

ERRORS = dict.fromkeys((400, 401, 403, 404, 409, 502), ERROR_ENVELOPE)
PayoutDeciders = area_permission("PayoutDeciders", Area.PAYOUT_REQUESTS)


# --- Premium membership --------------------------------------------------------------------------


class PlanListView(APIView):
    """The membership plans; public, so the become-a-host page can show the price too."""

    authentication_classes: list = []
    permission_classes = [AllowAny]

    @extend_schema(responses={200: enveloped("PlanList", PlanSerializer(many=True))})
    def get(self, request):
        plans = selectors.plans_active()
        return envelope(PlanSerializer(plans, many=True).data)


class SubscriptionView(APIView):
    permission_classes = [HostOrSubHost]

    @extend_schema(responses={200: enveloped("SubscriptionDetailResponse", SubscriptionDetailSerializer()), **ERRORS})
    def get(self, request):
        host = subscriptions.acting_host(request.user)
        subscription = subscriptions.subscription_get_or_create(host=host)
        subscription = selectors.subscription_with_plan(subscription.pk)
        return envelope(SubscriptionDetailSerializer(subscription).data)


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
        subscription = selectors.subscription_with_plan(record.subscription_id)
        return envelope(SubscriptionSerializer(subscription).data, "Payment successful")


class HostSubscriptionPaymentListView(APIView):
    permission_classes = [HostOrSubHost]

    @extend_schema(
        parameters=[
            OpenApiParameter("page", int, description="Page number, from 1."),
            OpenApiParameter("limit", int, description="Page size, at most 10."),
        ],
        responses={
            200: enveloped_page("HostSubscriptionPayments", "subscriptions", HostSubscriptionPaymentSerializer),
            **ERRORS,
        },
    )
    def get(self, request):
        host = subscriptions.acting_host(request.user)
        records = selectors.subscription_payments_completed(host=host)
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
        host = selectors.host_get(host_id=host_id)
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


# --- Booking payments ----------------------------------------------------------------------------

MONEY_ROLES = role_permission("MoneyRoles", *MONEY_ROLE_NAMES)
# The host's money as lists and documents (policies.MONEY_RECORD_ROLES): the subHost still sees the
# host dashboard's figures and buys premium for the host.
MONEY_READERS = role_permission("MoneyReaders", *MONEY_RECORD_ROLES)

PAGE_PARAMS = [OpenApiParameter("page", int), OpenApiParameter("limit", int)]
PERIOD_PARAM = OpenApiParameter("filters[period]", str, description="daily, weekly or monthly")


def _status_param(description: str) -> OpenApiParameter:
    return OpenApiParameter("filters[status]", str, description=description)


class PaymentListView(APIView):
    """Moderators run the platform but do not see money (spec: only the admin sees payouts)."""

    permission_classes = [MONEY_READERS]

    @extend_schema(
        parameters=[*PAGE_PARAMS, PERIOD_PARAM, _status_param("a payment status")],
        responses={200: enveloped_page("PaymentList", "payments", PaymentSerializer), **ERRORS},
    )
    def get(self, request):
        qs = selectors.payment_list_for(user=request.user, filters=parse_filters(request))
        return page_response(paginate(request, qs), PaymentSerializer, "payments")


class PaymentSingleView(APIView):
    permission_classes = [MONEY_READERS]

    @extend_schema(
        responses={
            200: enveloped(
                "PaymentSingle",
                inline_serializer(
                    "PaymentSingleData",
                    {"payment": PaymentSerializer(), "statusHistory": StatusChangeSchema(many=True)},
                ),
            ),
            **ERRORS,
        }
    )
    def get(self, request, booking_id):
        payment = selectors.payment_get_for_booking(user=request.user, booking_id=booking_id)
        return envelope(
            {"payment": PaymentSerializer(payment).data, "statusHistory": history_payload(history(payment))}
        )


class CheckoutView(APIView):
    permission_classes = [RenterOnly]

    @extend_schema(request=CheckoutInput, responses={200: enveloped("CheckoutResponse", CheckoutResult()), **ERRORS})
    def post(self, request):
        data = CheckoutInput(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        url = services.payment_checkout_start(
            user=request.user,
            booking_id=values["bookingId"],
            extension_id=values.get("extensionId") or None,
            redirect_url=values["redirectUrl"],
        )
        return envelope({"url": url}, "Redirecting to the payment page.")


class CheckoutConfirmView(APIView):
    """The success page's confirmation of a booking or extension checkout (the webhook does the same)."""

    permission_classes = [RenterOnly]

    @extend_schema(
        request=SubscribeSuccessInput,
        responses={
            200: enveloped(
                "CheckoutConfirm", inline_serializer("CheckoutConfirmData", {"payment": PaymentSerializer()})
            ),
            **ERRORS,
        },
    )
    def put(self, request):
        session_id = str(request.data.get("sessionId", ""))[:120] if isinstance(request.data, dict) else ""
        if not session_id:
            raise InvalidInput("sessionId is required.", errors={"sessionId": ["sessionId is required."]})
        if not selectors.checkout_session_is_renters(session_id=session_id, renter=request.user):
            raise NotFound("This payment was not found.")
        payment = services.payment_checkout_confirm(session_id=session_id)
        return envelope({"payment": PaymentSerializer(payment).data}, "Payment successful")


# --- Invoices ------------------------------------------------------------------------------------


class InvoiceListView(APIView):
    permission_classes = [MONEY_READERS]

    @extend_schema(
        parameters=[*PAGE_PARAMS, PERIOD_PARAM],
        responses={200: enveloped_page("InvoiceList", "invoices", InvoiceSerializer), **ERRORS},
    )
    def get(self, request):
        qs = selectors.invoice_list_for(user=request.user, filters=parse_filters(request))
        return page_response(paginate(request, qs), InvoiceSerializer, "invoices", context={"user": request.user})


class InvoicePdfView(APIView):
    permission_classes = [MONEY_READERS]

    @extend_schema(responses={(200, "application/pdf"): bytes, **ERRORS})
    def get(self, request, id):
        from .invoice_pdf import render_invoice_pdf

        invoice = selectors.invoice_get_for(user=request.user, id=id)
        response = HttpResponse(render_invoice_pdf(invoice, request.user), content_type="application/pdf")
        response["Content-Disposition"] = f'attachment; filename="{invoice.number}.pdf"'
        return response


# --- Payouts -------------------------------------------------------------------------------------


class PayoutBalanceView(APIView):
    permission_classes = [HostOnly]

    @extend_schema(responses={200: enveloped("PayoutBalance", BalanceSerializer()), **ERRORS})
    def get(self, request):
        balance = payouts.host_balance(host_id=request.user.acting_host_id)
        balance["can"] = {"request": payout_request_refusal(request.user) is None}
        return envelope(BalanceSerializer(balance).data)


class PayoutRequestView(APIView):
    permission_classes = [HostOnly]

    @extend_schema(request=None, responses={201: enveloped("PayoutRequested", PayoutSerializer()), **ERRORS})
    def post(self, request):
        payout = payouts.payout_request(user=request.user)
        return envelope(PayoutSerializer(payout).data, "Payout requested.", status=201)


class PayoutListView(APIView):
    """Host and subHost: their own payouts. Admin: every payout request."""

    permission_classes = [HostOnly | AdminOnly]

    @extend_schema(
        parameters=[*PAGE_PARAMS, PERIOD_PARAM, _status_param("onhold, released or failed; empty for all")],
        responses={200: enveloped_page("PayoutList", "payouts", PayoutSerializer), **ERRORS},
    )
    def get(self, request):
        qs = selectors.payout_list_for(user=request.user, filters=parse_filters(request))
        return page_response(paginate(request, qs), PayoutSerializer, "payouts")


class PayoutStatusView(APIView):
    permission_classes = [PayoutDeciders]

    @extend_schema(request=PayoutStatusInput, responses={200: enveloped("PayoutDecided", PayoutSerializer()), **ERRORS})
    def patch(self, request, id):
        data = PayoutStatusInput(data=request.data)
        data.is_valid(raise_exception=True)
        payout = payouts.payout_update_status(
            payout_id=id, by=request.user, status=data.validated_data["status"], note=data.validated_data["note"]
        )
        return envelope(PayoutSerializer(payout).data, f"Payout {payout.get_status_display().lower()}.")
