import re

from rest_framework import serializers

from apps.core.serializers import ApiModelSerializer

from .models import ContactDetails, Page, ReviewSettings
from .services import PAGE_CONTENT_MAX

CONTACT_NAME_MAX = 25
CONTACT_PHONE_MAX = 10
CONTACT_MESSAGE_MAX = 5000
_NAME = re.compile(r"^[^\W\d_](?:[^\W\d_]| )*$")  # letters and spaces, starting with a letter


class PageSerializer(ApiModelSerializer):
    class Meta:
        model = Page
        fields = ["id", "slug", "title", "content", "updated_at"]
        read_only_fields = fields


class PageInput(serializers.Serializer):
    content = serializers.CharField(
        max_length=PAGE_CONTENT_MAX,
        trim_whitespace=True,
        error_messages={
            "required": "Content is required",
            "blank": "Content is required",
            "null": "Content is required",
            "invalid": "Content must be HTML text",
            "max_length": f"Content must be at most {PAGE_CONTENT_MAX} characters long",
        },
    )
    title = serializers.CharField(
        max_length=120,
        required=False,
        allow_blank=True,
        error_messages={"max_length": "Title must be at most 120 characters long", "invalid": "Title must be text"},
    )


class ContactDetailsSerializer(serializers.ModelSerializer):
    fullName = serializers.CharField(source="full_name")
    recepientEmail = serializers.EmailField(source="recipient_email")  # spelt so in the API contract
    updatedAt = serializers.DateTimeField(source="updated_at")

    class Meta:
        model = ContactDetails
        fields = ["fullName", "location", "recepientEmail", "updatedAt"]
        read_only_fields = fields


def _required(label: str, **extra) -> dict:
    return {
        "required": f"{label} is required",
        "blank": f"{label} is required",
        "null": f"{label} is required",
        **extra,
    }


class ContactDetailsInput(serializers.Serializer):
    fullName = serializers.CharField(
        max_length=100,
        error_messages=_required("Full name", max_length="Full name must be at most 100 characters long"),
    )
    location = serializers.CharField(
        max_length=255, error_messages=_required("Location", max_length="Location must be at most 255 characters long")
    )
    recepientEmail = serializers.EmailField(
        max_length=254,
        error_messages=_required(
            "Recipient email", invalid="Invalid email address", max_length="Email must be at most 254 characters long"
        ),
    )


class ReviewSettingsSerializer(serializers.ModelSerializer):
    autoPublish = serializers.BooleanField(source="auto_publish")
    updatedAt = serializers.DateTimeField(source="updated_at")

    class Meta:
        model = ReviewSettings
        fields = ["autoPublish", "updatedAt"]
        read_only_fields = fields


class ReviewSettingsInput(serializers.Serializer):
    autoPublish = serializers.BooleanField(
        error_messages={
            "required": "autoPublish is required",
            "null": "autoPublish is required",
            "invalid": "autoPublish must be true or false",
        }
    )

    def to_internal_value(self, data):
        # BooleanField accepts "yes", 1 and the like; a settings switch takes a real boolean only.
        if isinstance(data, dict) and "autoPublish" in data and not isinstance(data["autoPublish"], bool):
            raise serializers.ValidationError({"autoPublish": ["autoPublish must be true or false"]})
        return super().to_internal_value(data)


class ContactMailInput(serializers.Serializer):
    """The contact form (spec section 5) with its exact messages. Empty strings count as absent."""

    name = serializers.CharField(error_messages=_required("Name", invalid="Name must be text"))
    phoneNumber = serializers.CharField(error_messages=_required("Phone number", invalid="Phone number must be text"))
    email = serializers.EmailField(
        error_messages=_required("Email", invalid="Invalid email address"),
    )
    message = serializers.CharField(error_messages=_required("Message", invalid="Message must be text"))

    def validate_name(self, value: str) -> str:
        problems = []
        if not _NAME.match(value):
            problems.append("No digits allowed.")
        if len(value) > CONTACT_NAME_MAX:
            problems.append(f"Name must be at most {CONTACT_NAME_MAX} characters long")
        if problems:
            raise serializers.ValidationError(problems)
        return value

    def validate_phoneNumber(self, value: str) -> str:
        if len(value) > CONTACT_PHONE_MAX:
            raise serializers.ValidationError(f"Phone must be at most {CONTACT_PHONE_MAX} characters long")
        if not value.isascii() or not value.isdigit():
            raise serializers.ValidationError("Phone number must contain digits only.")
        return value

    def validate_email(self, value: str) -> str:
        if len(value) > 254:
            raise serializers.ValidationError("Invalid email address")
        return value

    def validate_message(self, value: str) -> str:
        if len(value) > CONTACT_MESSAGE_MAX:
            raise serializers.ValidationError(f"Message must be at most {CONTACT_MESSAGE_MAX} characters long")
        return value
