"""CMS API: content pages, contact details and form, review settings (spec section 7, content calls)."""

from drf_spectacular.utils import extend_schema
from rest_framework.permissions import AllowAny
from rest_framework.throttling import ScopedRateThrottle
from rest_framework.views import APIView

from apps.core.api import ERROR_ENVELOPE, envelope, enveloped
from apps.core.permissions import AdminOrModerator

from . import selectors, services
from .serializers import (
    ContactDetailsInput,
    ContactDetailsSerializer,
    ContactMailInput,
    PageInput,
    PageSerializer,
    ReviewSettingsInput,
    ReviewSettingsSerializer,
)

ERRORS = dict.fromkeys((400, 401, 403, 429), ERROR_ENVELOPE)


class PublicView(APIView):
    """Readable by anyone; a stale token in the request is ignored rather than refused."""

    authentication_classes: list = []
    permission_classes = [AllowAny]


class PageGetView(PublicView):
    slug = ""

    @extend_schema(responses={200: enveloped("CmsPageResponse", PageSerializer())})
    def get(self, request):
        return envelope(PageSerializer(selectors.cms_page_get(self.slug)).data)


class PageUpdateView(APIView):
    permission_classes = [AdminOrModerator]
    slug = ""

    @extend_schema(request=PageInput, responses={200: enveloped("CmsPageUpdateResponse", PageSerializer()), **ERRORS})
    def put(self, request):
        data = PageInput(data=request.data)
        data.is_valid(raise_exception=True)
        page = services.cms_page_update(
            slug=self.slug,
            content=data.validated_data["content"],
            title=data.validated_data.get("title"),
            actor=request.user,
        )
        return envelope(PageSerializer(page).data, f"{page.title} updated successfully.")


class ContactGetView(PublicView):
    @extend_schema(responses={200: enveloped("ContactDetailsResponse", ContactDetailsSerializer())})
    def get(self, request):
        return envelope(ContactDetailsSerializer(selectors.contact_details_get()).data)


class ContactUpdateView(APIView):
    permission_classes = [AdminOrModerator]

    @extend_schema(
        request=ContactDetailsInput,
        responses={200: enveloped("ContactDetailsUpdateResponse", ContactDetailsSerializer()), **ERRORS},
    )
    def put(self, request):
        data = ContactDetailsInput(data=request.data)
        data.is_valid(raise_exception=True)
        details = services.contact_details_update(
            actor=request.user,
            full_name=data.validated_data["fullName"],
            location=data.validated_data["location"],
            recipient_email=data.validated_data["recepientEmail"],
        )
        return envelope(ContactDetailsSerializer(details).data, "Contact details updated successfully.")


class ContactSendMailView(PublicView):
    """The Contact Us form: mailed to the recipient of the contact details. Rate limited per address."""

    throttle_classes = [ScopedRateThrottle]
    throttle_scope = "contact"

    @extend_schema(request=ContactMailInput, responses={200: enveloped("ContactMailResponse", None), **ERRORS})
    def post(self, request):
        data = ContactMailInput(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        services.contact_mail_send(
            name=values["name"], phone_number=values["phoneNumber"], email=values["email"], message=values["message"]
        )
        return envelope(None, "Mail sent.")


class ReviewSettingsView(APIView):
    permission_classes = [AdminOrModerator]

    @extend_schema(responses={200: enveloped("ReviewSettingsResponse", ReviewSettingsSerializer()), **ERRORS})
    def get(self, request):
        return envelope(ReviewSettingsSerializer(selectors.review_settings_get()).data)


class ReviewSettingsUpdateView(APIView):
    permission_classes = [AdminOrModerator]

    @extend_schema(
        request=ReviewSettingsInput,
        responses={200: enveloped("ReviewSettingsUpdateResponse", ReviewSettingsSerializer()), **ERRORS},
    )
    def put(self, request):
        data = ReviewSettingsInput(data=request.data)
        data.is_valid(raise_exception=True)
        row = services.review_settings_update(actor=request.user, auto_publish=data.validated_data["autoPublish"])
        return envelope(ReviewSettingsSerializer(row).data, "Review settings updated successfully.")
