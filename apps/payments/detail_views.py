"""``GET /api/payment/details``: one payment's story for the payment-details page (admin, host, subHost)."""

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.views import APIView

from apps.accounts.models import Role
from apps.core.api import ERROR_ENVELOPE, envelope, enveloped
from apps.core.permissions import role_permission

from .details import payment_details_get_for, payment_details_payload
from .serializers import PaymentDetailsSerializer

# Not the subHost: least privilege (docs/security.md "Round two").
PaymentDetailsRoles = role_permission("PaymentDetailsRoles", Role.ADMIN, Role.HOST)


class PaymentDetailsView(APIView):
    permission_classes = [PaymentDetailsRoles]

    @extend_schema(
        summary="One payment: authorisation, capture, refunds and credit notes, the host's earning and its payout",
        parameters=[
            OpenApiParameter("paymentId", str, description="The payment's id"),
            OpenApiParameter("bookingId", str, description="Or its booking's id"),
        ],
        responses={
            200: enveloped("PaymentDetailsResponse", PaymentDetailsSerializer()),
            **dict.fromkeys((401, 403, 404), ERROR_ENVELOPE),
        },
    )
    def get(self, request):
        payment = payment_details_get_for(
            user=request.user,
            payment_id=request.query_params.get("paymentId", "")[:64],
            booking_id=request.query_params.get("bookingId", "")[:64],
        )
        return envelope(PaymentDetailsSerializer(payment_details_payload(payment)).data)
