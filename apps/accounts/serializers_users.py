"""Serializers of the back-office, verification and general-settings API."""

from django.urls import reverse
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from apps.core.serializers import ApiModelSerializer, WithStatusHistory

from .models import Role, User, VerificationDocument, VerificationRequest
from .policies import ACCOUNT_STATUSES, account_status, public_host_page, user_can, verifies_identity
from .serializers import EMAIL_MESSAGES, UserIdentitySerializer, UserSerializer, otp_field, password_field
from .services_verification import verification_request_may_decide


def _required(label: str, **extra) -> dict:
    return {
        "required": f"{label} is required",
        "blank": f"{label} is required",
        "null": f"{label} is required",
        **extra,
    }


def name_field(label: str, *, required: bool = True) -> serializers.CharField:
    return serializers.CharField(
        max_length=50,
        required=required,
        error_messages=_required(
            label, max_length=f"{label} must be at most 50 characters long", invalid=f"{label} must be text"
        ),
    )


class ChoiceInput(serializers.ChoiceField):
    """A choice where an empty string counts as absent (spec: empty strings are absent before validation)."""

    def validate_empty_values(self, data):
        if data == "":
            data = serializers.empty
        return super().validate_empty_values(data)


class VerificationDocumentSerializer(ApiModelSerializer):
    """One entry of ``verificationDocs``: ``fileName`` identifies it in ``media/delete``; ``url`` is private."""

    fileName = serializers.CharField(source="file_name", read_only=True)
    url = serializers.SerializerMethodField()

    class Meta:
        model = VerificationDocument
        fields = ["id", "name", "fileName", "content_type", "size", "created_at", "url"]
        read_only_fields = fields

    def get_url(self, document: VerificationDocument) -> str:
        return reverse("accounts:verification-doc-file", kwargs={"document_id": document.pk})


class UserCanSerializer(serializers.Serializer):
    """What the caller may do to this account (``apps.accounts.policies.user_can``)."""

    suspend = serializers.BooleanField()
    restore = serializers.BooleanField()
    delete = serializers.BooleanField()
    resendInvitation = serializers.BooleanField()


def _can(serializer: serializers.Serializer, user: User) -> dict[str, bool]:
    actor = serializer.context.get("user")
    if actor is None or not getattr(actor, "is_authenticated", False):
        return {"suspend": False, "restore": False, "delete": False, "resendInvitation": False}
    return user_can(actor, user)


AccountStatusField = serializers.ChoiceField(choices=list(ACCOUNT_STATUSES))


class UserListItemSerializer(UserIdentitySerializer):
    status = serializers.SerializerMethodField()
    passwordSet = serializers.SerializerMethodField()
    can = serializers.SerializerMethodField()

    class Meta(UserIdentitySerializer.Meta):
        fields = [
            *UserIdentitySerializer.Meta.fields,
            "city",
            "country",
            "is_verified",
            "account_verified",
            "is_active",
            "is_deleted",
            "status",
            "passwordSet",
            "created_at",
            "can",
        ]
        read_only_fields = fields

    @extend_schema_field(AccountStatusField)
    def get_status(self, user: User) -> str:
        return account_status(user)

    @extend_schema_field(UserCanSerializer)
    def get_can(self, user: User) -> dict[str, bool]:
        return _can(self, user)

    def get_passwordSet(self, user: User) -> bool:
        return user.has_usable_password()


class UserDetailSerializer(UserSerializer):
    """A whole account, for staff, the account itself and a host looking at its subHost."""

    status = serializers.SerializerMethodField()
    isActive = serializers.BooleanField(source="is_active", read_only=True)
    lastLogin = serializers.DateTimeField(source="last_login", read_only=True, allow_null=True)
    verificationDocs = VerificationDocumentSerializer(source="verification_documents", many=True, read_only=True)
    verificationStatus = serializers.SerializerMethodField()
    verifiesIdentity = serializers.SerializerMethodField(
        help_text="True when the account proves its identity with documents (hosts): the profile shows where that stands."
    )
    publicPage = serializers.SerializerMethodField(
        help_text="The path of the host's public page, or null when it has none."
    )
    can = serializers.SerializerMethodField()

    class Meta(UserSerializer.Meta):
        fields = [
            *UserSerializer.Meta.fields,
            "status",
            "isActive",
            "lastLogin",
            "verificationDocs",
            "verificationStatus",
            "verifiesIdentity",
            "publicPage",
            "can",
        ]
        read_only_fields = fields

    @extend_schema_field(AccountStatusField)
    def get_status(self, user: User) -> str:
        return account_status(user)

    @extend_schema_field(UserCanSerializer)
    def get_can(self, user: User) -> dict[str, bool]:
        return _can(self, user)

    def get_verifiesIdentity(self, user: User) -> bool:
        return verifies_identity(user)

    def get_publicPage(self, user: User) -> str | None:
        return public_host_page(user)

    def get_verificationStatus(self, user: User) -> str | None:
        latest = user.verification_requests.order_by("-created_at").first()
        return latest.status if latest else None


class DecidedBySerializer(serializers.Serializer):
    _id = serializers.UUIDField()
    email = serializers.EmailField()
    firstName = serializers.CharField()
    lastName = serializers.CharField()
    displayName = serializers.CharField()
    role = serializers.ChoiceField(choices=Role.choices)


class VerificationRequestCanSerializer(serializers.Serializer):
    approve = serializers.BooleanField()
    reject = serializers.BooleanField()


class VerificationRequestSerializer(ApiModelSerializer):
    user = UserListItemSerializer(read_only=True)
    decidedBy = serializers.SerializerMethodField()
    verificationDocs = VerificationDocumentSerializer(many=True, read_only=True, source="documents_for_list")
    can = serializers.SerializerMethodField()

    class Meta:
        model = VerificationRequest
        fields = [
            "id",
            "status",
            "user",
            "created_at",
            "decided_at",
            "decidedBy",
            "reject_reason",
            "verificationDocs",
            "can",
        ]
        read_only_fields = fields

    def to_representation(self, instance):
        documents = self.context.get("documents", {}).get(instance.user_id)
        instance.documents_for_list = (
            documents if documents is not None else list(instance.user.verification_documents.all())
        )
        return super().to_representation(instance)

    @extend_schema_field(VerificationRequestCanSerializer)
    def get_can(self, request: VerificationRequest) -> dict:
        """What the viewer may do with the request (the same rule the decision service enforces)."""
        may = verification_request_may_decide(self.context.get("actor"), request)
        return {"approve": may, "reject": may}

    @extend_schema_field(DecidedBySerializer(allow_null=True))
    def get_decidedBy(self, request: VerificationRequest) -> dict | None:
        if request.decided_by is None:
            return None
        who = request.decided_by
        return {
            "_id": str(who.pk),
            "email": who.email,
            "firstName": who.first_name,
            "lastName": who.last_name,
            "displayName": who.display_name,
            "role": who.role,
        }


# --- Inputs -----------------------------------------------------------------------------


class VerificationRequestDetailSerializer(WithStatusHistory, VerificationRequestSerializer):
    """One request as staff read it, with who opened, approved or rejected it and when."""

    class Meta(VerificationRequestSerializer.Meta):
        fields = [*VerificationRequestSerializer.Meta.fields, "statusHistory"]
        read_only_fields = fields


class InviteInput(serializers.Serializer):
    email = serializers.EmailField(max_length=254, error_messages=EMAIL_MESSAGES)
    firstName = name_field("First name")
    lastName = name_field("Last name")


class AddHostInput(InviteInput):
    userName = serializers.RegexField(
        r"^[A-Za-z0-9][A-Za-z0-9_.-]{2,39}$",
        max_length=40,
        required=False,
        allow_blank=True,
        default="",
        error_messages={
            "invalid": "User name must be 3 to 40 letters, digits, dots, dashes or underscores, starting with a letter or digit.",
            "max_length": "User name must be at most 40 characters long",
        },
    )
    tax = serializers.DecimalField(
        max_digits=5,
        decimal_places=2,
        min_value=0,
        max_value=100,
        required=False,
        error_messages={
            "invalid": "Tax must be a number from 0 to 100.",
            "min_value": "Tax must be a number from 0 to 100.",
            "max_value": "Tax must be a number from 0 to 100.",
            "max_digits": "Tax must be a number from 0 to 100.",
            "max_decimal_places": "Tax can have at most 2 decimals.",
        },
    )


TAX_MESSAGES = {
    "required": "Tax is required",
    "null": "Tax is required",
    "invalid": "Tax must be a number from 0 to 100.",
    "min_value": "Tax must be a number from 0 to 100.",
    "max_value": "Tax must be a number from 0 to 100.",
    "max_digits": "Tax must be a number from 0 to 100.",
    "max_whole_digits": "Tax must be a number from 0 to 100.",
    "max_decimal_places": "Tax can have at most 2 decimals.",
}


class TaxInput(serializers.Serializer):
    tax = serializers.DecimalField(
        max_digits=5, decimal_places=2, min_value=0, max_value=100, error_messages=TAX_MESSAGES
    )


class SubHostUpdateInput(serializers.Serializer):
    firstName = name_field("First name", required=False)
    lastName = name_field("Last name", required=False)
    isActive = serializers.BooleanField(
        required=False,
        error_messages={"invalid": "isActive must be true or false", "null": "isActive must be true or false"},
    )


class StatusInput(serializers.Serializer):
    status = ChoiceInput(
        choices=["active", "suspended", "deleted"],
        error_messages=_required("Status", invalid_choice="Status must be active, suspended or deleted."),
    )


class VerificationDecisionInput(serializers.Serializer):
    status = ChoiceInput(
        choices=["approved", "rejected"],
        error_messages=_required("Status", invalid_choice="Status must be approved or rejected."),
    )
    reason = serializers.CharField(
        max_length=500,
        required=False,
        allow_blank=True,
        default="",
        error_messages={"max_length": "Reason must be at most 500 characters long", "invalid": "Reason must be text"},
    )


class MediaDeleteInput(serializers.Serializer):
    fileName = serializers.CharField(max_length=255, error_messages=_required("fileName"))
    type = ChoiceInput(
        choices=["verificationDoc"], error_messages=_required("type", invalid_choice="type must be verificationDoc.")
    )
    userId = serializers.UUIDField(error_messages=_required("userId", invalid="userId is not valid"))


class SetPasswordInput(serializers.Serializer):
    uid = serializers.CharField(max_length=64, error_messages=_required("uid"))
    token = serializers.CharField(max_length=128, error_messages=_required("token"))
    password = password_field()


class PasswordChangeInput(serializers.Serializer):
    currentPassword = serializers.CharField(
        max_length=128, trim_whitespace=False, write_only=True, error_messages=_required("Current password")
    )
    newPassword = password_field()
    confirmPassword = serializers.CharField(
        max_length=128,
        trim_whitespace=False,
        required=False,
        write_only=True,
        error_messages=_required("Confirm Password"),
    )

    def validate(self, attrs):
        if "confirmPassword" in attrs and attrs["confirmPassword"] != attrs["newPassword"]:
            raise serializers.ValidationError({"confirmPassword": ["Passwords must match"]})
        return attrs


class EmailChangeInput(serializers.Serializer):
    email = serializers.EmailField(max_length=254, error_messages=EMAIL_MESSAGES)
    password = serializers.CharField(
        max_length=128, trim_whitespace=False, write_only=True, error_messages=_required("Password")
    )


class OtpInput(serializers.Serializer):
    otp = otp_field()


class AccountDeleteInput(serializers.Serializer):
    password = serializers.CharField(
        max_length=128, trim_whitespace=False, write_only=True, error_messages=_required("Password")
    )


class NotificationSettingsInput(serializers.Serializer):
    settings = serializers.JSONField(error_messages=_required("settings"))
