from rest_framework import serializers

from apps.core.serializers import ApiModelSerializer, TextOnlyInput

from .models import Gender, Role, User

EMAIL_MESSAGES = {
    "required": "Email is required",
    "blank": "Email is required",
    "null": "Email is required",
    "invalid": "Please enter a valid email",
    "max_length": "Email must be at most 254 characters long",
}


def email_field(**kwargs) -> serializers.EmailField:
    return serializers.EmailField(max_length=254, error_messages=EMAIL_MESSAGES, **kwargs)


def otp_field() -> serializers.RegexField:
    """The 5-digit one-time code of sign-up, password reset and e-mail change."""
    return serializers.RegexField(
        r"^\d{5}$",
        max_length=5,
        error_messages={
            "required": "Please enter the 5-digit code",
            "blank": "Please enter the 5-digit code",
            "null": "Please enter the 5-digit code",
            "invalid": "The code must be 5 digits",
            "max_length": "The code must be 5 digits",
        },
    )


def password_field(*, login: bool = False) -> serializers.CharField:
    return serializers.CharField(
        max_length=128,
        min_length=8,
        trim_whitespace=False,
        write_only=True,
        style={"input_type": "password"},
        error_messages={
            "required": "Password is required",
            "blank": "Password is required",
            "null": "Password is required",
            "min_length": "Password must be at least 8 characters"
            if login
            else "Password must be at least 8 characters long",
            "max_length": "Password must be at most 128 characters long",
            "invalid": "Password must be text",
        },
    )


class UserIdentitySerializer(ApiModelSerializer):
    """Who an account is: the fields the own-account and the back-office list shapes start with."""

    avatar = serializers.CharField(source="avatar_url", read_only=True)
    host = serializers.UUIDField(source="host_id", read_only=True, allow_null=True)
    displayName = serializers.CharField(
        source="display_name",
        read_only=True,
        help_text="The name to show: the full name, else the user name, else the e-mail's local part.",
    )

    class Meta:
        model = User
        fields = ["id", "email", "role", "host", "avatar", "first_name", "last_name", "user_name", "displayName"]
        read_only_fields = fields


class SocialMediaLinkSerializer(serializers.Serializer):
    """One social link as the profile shows it: the network's label and the link."""

    label = serializers.CharField()
    link = serializers.CharField()


class UserSerializer(UserIdentitySerializer):
    """The signed-in user's own account, as the client stores it (``userInfo``)."""

    emergencyContactname = serializers.CharField(source="emergency_contact_name", read_only=True)
    # Empty until the user fills them in: the schema says so ("" besides the e-mail or the choices).
    gender = serializers.ChoiceField(choices=Gender.choices, allow_blank=True, read_only=True)
    emergencyEmail = serializers.CharField(
        source="emergency_email", read_only=True, help_text="An e-mail address, or empty when none was given."
    )

    socialMediaLinks = SocialMediaLinkSerializer(source="social_media_links", many=True, read_only=True)
    notificationSettings = serializers.DictField(
        child=serializers.DictField(child=serializers.BooleanField()),
        source="notification_settings",
        read_only=True,
        help_text="The user's own choices: notification kind to channel to on or off.",
    )

    class Meta(UserIdentitySerializer.Meta):
        fields = [
            *UserIdentitySerializer.Meta.fields,
            "gender",
            "bio",
            "state",
            "country",
            "city",
            "emergencyContactname",
            "emergency_phone",
            "emergency_relationship",
            "emergencyEmail",
            "native_language",
            "socialMediaLinks",
            "notificationSettings",
            "is_verified",
            "account_verified",
            "is_deleted",
            "tax",
            "fmc_token",
            "created_at",
        ]
        read_only_fields = fields


class PublicUserSerializer(ApiModelSerializer):
    """What anyone may see of another user (host cards, booking panels)."""

    avatar = serializers.CharField(source="avatar_url", read_only=True)

    class Meta:
        model = User
        fields = [
            "id",
            "role",
            "avatar",
            "first_name",
            "last_name",
            "user_name",
            "bio",
            "city",
            "country",
            "is_verified",
            "is_deleted",
        ]
        read_only_fields = fields


class AuthResultSerializer(serializers.Serializer):
    user = UserSerializer()
    token = serializers.CharField(allow_null=True)
    refreshToken = serializers.CharField(allow_null=True)


class UserIdSerializer(serializers.Serializer):
    userID = serializers.UUIDField()


class RegisterInput(serializers.Serializer):
    email = email_field()
    password = password_field()
    role = serializers.ChoiceField(
        choices=[Role.RENTER, Role.HOST],
        error_messages={
            "required": "Role is required",
            "null": "Role is required",
            "invalid_choice": "Role must be renter or host.",
        },
    )
    firstName = serializers.CharField(max_length=50, required=False, allow_blank=True, default="")
    lastName = serializers.CharField(max_length=50, required=False, allow_blank=True, default="")

    def to_internal_value(self, data):
        if isinstance(data, dict) and data.get("role") == "":
            data = {**data, "role": None}
        return super().to_internal_value(data)


class LoginInput(serializers.Serializer):
    email = email_field()
    password = password_field(login=True)


class EmailInput(serializers.Serializer):
    email = email_field()


class VerifyOtpInput(serializers.Serializer):
    userID = serializers.UUIDField(
        error_messages={
            "required": "userID is required",
            "null": "userID is required",
            "invalid": "userID is not valid",
        }
    )
    otp = otp_field()


class ResetPasswordInput(serializers.Serializer):
    email = email_field()
    password = password_field()


class RefreshInput(serializers.Serializer):
    refreshToken = serializers.CharField(
        max_length=2000, error_messages={"required": "refreshToken is required", "blank": "refreshToken is required"}
    )


class LogoutInput(TextOnlyInput):
    """The refresh token to sign out too, when the client holds one; an empty body ends the session."""

    refreshToken = serializers.CharField(max_length=2000, required=False, allow_blank=True)


SOCIAL_MEDIA_LABELS = ("Facebook", "Twitter", "Pintrest", "Instagram")


class SocialMediaLinkInput(TextOnlyInput):
    """One of the profile's social links (spec 3: label Facebook, Twitter, Pintrest or Instagram, plus link)."""

    label = serializers.ChoiceField(
        choices=SOCIAL_MEDIA_LABELS,
        error_messages={
            "invalid_choice": "Choose Facebook, Twitter, Pintrest or Instagram.",
            "required": "Choose a network",
        },
    )
    link = serializers.URLField(
        max_length=300,
        error_messages={
            "invalid": "Please enter a valid link (https://...)",
            "required": "Link is required",
            "blank": "Link is required",
        },
    )

    def validate(self, attrs):
        # The profile's update is partial, which DRF carries into nested items: a link still needs both parts.
        missing = {}
        if "label" not in attrs:
            missing["label"] = [self.fields["label"].error_messages["required"]]
        if "link" not in attrs:
            missing["link"] = [self.fields["link"].error_messages["required"]]
        if missing:
            raise serializers.ValidationError(missing)
        return attrs


class ProfileInput(TextOnlyInput):
    """The profile's editable fields (spec section 3, User)."""

    firstName = serializers.CharField(source="first_name", max_length=50, required=False, allow_blank=True)
    lastName = serializers.CharField(source="last_name", max_length=50, required=False, allow_blank=True)
    userName = serializers.RegexField(
        r"^[A-Za-z0-9][A-Za-z0-9_.-]{2,39}$",
        source="user_name",
        max_length=40,
        required=False,
        allow_blank=True,
        error_messages={
            "invalid": "User name must be 3 to 40 letters, digits, dots, dashes or underscores, starting with a letter or digit."
        },
    )
    bio = serializers.CharField(max_length=2000, required=False, allow_blank=True)
    nativeLanguage = serializers.CharField(source="native_language", max_length=50, required=False, allow_blank=True)
    avatar = serializers.ImageField(
        required=False, error_messages={"invalid_image": "The avatar must be a JPEG, PNG or WebP image."}
    )
    emergencyEmail = serializers.EmailField(
        source="emergency_email", required=False, allow_blank=True, error_messages=EMAIL_MESSAGES
    )
    emergencyPhone = serializers.RegexField(
        r"^\d{0,15}$",
        source="emergency_phone",
        required=False,
        allow_blank=True,
        max_length=15,
        error_messages={
            "invalid": "Phone number must be digits only, at most 15.",
            "max_length": "Phone number must be digits only, at most 15.",
        },
    )
    state = serializers.CharField(max_length=80, required=False, allow_blank=True)
    country = serializers.CharField(max_length=80, required=False, allow_blank=True)
    city = serializers.CharField(max_length=80, required=False, allow_blank=True)
    gender = serializers.ChoiceField(
        choices=Gender.choices,
        required=False,
        allow_blank=True,
        error_messages={"invalid_choice": "Gender must be male, female or other."},
    )
    emergencyContactname = serializers.CharField(
        source="emergency_contact_name", max_length=100, required=False, allow_blank=True
    )
    emergencyRelationship = serializers.CharField(
        source="emergency_relationship", max_length=50, required=False, allow_blank=True
    )
    socialMediaLinks = SocialMediaLinkInput(source="social_media_links", many=True, required=False)
    fmcToken = serializers.CharField(source="fmc_token", max_length=512, required=False, allow_blank=True)

    def validate_socialMediaLinks(self, links):
        labels = [link["label"] for link in links]
        if len(labels) != len(set(labels)):
            raise serializers.ValidationError("Add each network only once.")
        return [{"label": link["label"], "link": link["link"]} for link in links]
