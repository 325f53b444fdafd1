import uuid
from pathlib import Path

from django.conf import settings
from django.contrib.auth.base_user import AbstractBaseUser, BaseUserManager
from django.contrib.postgres.indexes import GinIndex, OpClass
from django.core.files.storage import FileSystemStorage
from django.db import models
from django.db.models import Q
from django.db.models.functions import Lower, Upper
from django.utils import timezone
from django.utils.functional import cached_property

from apps.core.roles import HOST_SIDE_ROLES, STAFF_ROLES, Role

from .identifiers import normalize_email

SELF_REGISTRATION_ROLES = (Role.RENTER, Role.HOST)


class Gender(models.TextChoices):
    MALE = "male", "Male"
    FEMALE = "female", "Female"
    OTHER = "other", "Other"


class UserManager(BaseUserManager):
    use_in_migrations = True

    def create_user(self, email: str, password: str | None = None, **fields):
        if not email:
            raise ValueError("Email is required")
        user = self.model(email=normalize_email(email), **fields)
        user.set_password(password)
        user.save(using=self._db)
        return user

    def create_superuser(self, email: str, password: str | None = None, **fields):
        fields.setdefault("role", Role.ADMIN)
        fields.setdefault("account_verified", True)
        return self.create_user(email, password, **fields)

    def alive(self):
        return self.filter(is_deleted=False)

    def get_by_natural_key(self, username):
        """The Django admin's sign-in finds the account by the same normal form as the API's."""
        return self.get(email=normalize_email(username))


def display_name(*, first_name: str = "", last_name: str = "", user_name: str = "", email: str = "") -> str:
    """The one rule for a person's name on screen, in mail and in PDFs: first and last name (or
    whichever of the two is set), else the user name the person chose, else the e-mail's local
    part (never the domain), so that nobody shows as nothing (docs/decisions/accounts/one-rule-names-a-person-everywhere.md)."""
    full = f"{(first_name or '').strip()} {(last_name or '').strip()}".strip()
    return full or (user_name or "").strip() or (email or "").split("@", 1)[0]


def avatar_path(instance: "User", filename: str) -> str:
    return f"avatars/{instance.pk}/{uuid.uuid4().hex}.jpg"


class User(AbstractBaseUser):
    """A person on the marketplace, in one of five roles.

    ``account_verified`` means the e-mail address was confirmed with a one-time code;
    ``is_verified`` means staff approved the host's identity documents.
    """

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    email = models.EmailField(max_length=254, unique=True)
    role = models.CharField(max_length=16, choices=Role.choices, default=Role.RENTER)
    host = models.ForeignKey(
        "self",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="sub_hosts",
        help_text="For a subHost: the host it acts for.",
    )
    avatar = models.ImageField(upload_to=avatar_path, blank=True)
    first_name = models.CharField(max_length=50, blank=True)
    last_name = models.CharField(max_length=50, blank=True)
    user_name = models.CharField(max_length=40, blank=True)
    gender = models.CharField(max_length=8, choices=Gender.choices, blank=True)
    bio = models.TextField(max_length=2000, blank=True)
    state = models.CharField(max_length=80, blank=True)
    country = models.CharField(max_length=80, blank=True)
    city = models.CharField(max_length=80, blank=True)
    emergency_contact_name = models.CharField(max_length=100, blank=True)
    emergency_phone = models.CharField(max_length=15, blank=True)
    emergency_relationship = models.CharField(max_length=50, blank=True)
    emergency_email = models.EmailField(blank=True)
    native_language = models.CharField(max_length=50, blank=True)
    social_media_links = models.JSONField(default=list, blank=True)
    notification_settings = models.JSONField(default=dict, blank=True)
    tax = models.DecimalField(max_digits=5, decimal_places=2, default=0, help_text="Host tax, percent.")
    fmc_token = models.CharField(max_length=512, blank=True)
    # Part of the host's private calendar addresses (bookings.calendars.export): resetting it makes
    # every address given out before stop working (a sub-host removed, a link shared too widely).
    # Blank for a host that never reset them: the addresses made before the secret still work.
    ical_secret = models.CharField(max_length=64, blank=True, default="")
    is_verified = models.BooleanField(default=False, help_text="Identity approved by staff.")
    account_verified = models.BooleanField(default=False, help_text="E-mail confirmed with a code.")
    is_active = models.BooleanField(default=True, help_text="False while the account is suspended.")
    is_deleted = models.BooleanField(default=False)
    deleted_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now, db_index=True)
    updated_at = models.DateTimeField(auto_now=True)

    objects = UserManager()

    USERNAME_FIELD = "email"
    EMAIL_FIELD = "email"
    REQUIRED_FIELDS: list[str] = []

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.UniqueConstraint(Lower("email"), name="user_email_unique_ci"),
            models.UniqueConstraint(Lower("user_name"), condition=~Q(user_name=""), name="user_user_name_unique_ci"),
            models.CheckConstraint(condition=Q(role__in=Role.values), name="user_role_valid"),
            models.CheckConstraint(condition=Q(gender__in=[*Gender.values, ""]), name="user_gender_valid"),
            models.CheckConstraint(
                condition=Q(role=Role.SUB_HOST, host__isnull=False) | (~Q(role=Role.SUB_HOST) & Q(host__isnull=True)),
                name="user_sub_host_has_host",
            ),
            models.CheckConstraint(condition=Q(tax__gte=0, tax__lte=100), name="user_tax_percent"),
        ]
        indexes = [
            models.Index(fields=["role", "is_deleted"]),
            # Back-office lists: one role, newest first, also on deep pages and for rare roles.
            models.Index(fields=["role", "is_deleted", "-created_at", "-id"], name="user_role_list"),
            # The few deleted accounts, so lists of other rows can leave theirs out without a join.
            models.Index(fields=["id"], condition=Q(is_deleted=True), name="user_deleted_ids"),
            # Back-office search (icontains compiles to UPPER(col) LIKE UPPER(%s)): trigram indexes.
            *(
                GinIndex(OpClass(Upper(column), name="gin_trgm_ops"), name=f"user_{column}_trgm")
                for column in ("email", "first_name", "last_name", "user_name")
            ),
        ]

    def __str__(self) -> str:
        return self.email

    def save(self, *args, **kwargs):
        # Every write path (API, Django admin, shell) stores the address in its one normal form.
        self.email = normalize_email(self.email)
        super().save(*args, **kwargs)

    # --- Roles ---------------------------------------------------------------

    @property
    def is_staff(self) -> bool:
        """Admin and moderator may use the Django admin."""
        return self.role in STAFF_ROLES and self.is_active and not self.is_deleted

    @property
    def is_superuser(self) -> bool:
        return self.role == Role.ADMIN and self.is_staff

    def has_perm(self, perm: str, obj=None) -> bool:
        """The Django admin's permissions: the admin has all; a moderator only those of
        ``apps.accounts.policies.MODERATOR_ADMIN`` (least privilege: no roles, e-mails or money)."""
        if self.is_superuser:
            return True
        if not self.is_staff:
            return False
        from .policies import moderator_admin_may

        return moderator_admin_may(perm)

    def has_perms(self, perm_list, obj=None) -> bool:
        return all(self.has_perm(perm, obj) for perm in perm_list)

    def has_module_perms(self, app_label: str) -> bool:
        if self.is_superuser:
            return True
        if not self.is_staff:
            return False
        from .policies import moderator_admin_apps

        return app_label in moderator_admin_apps()

    @property
    def is_host_side(self) -> bool:
        return self.role in HOST_SIDE_ROLES

    @property
    def acting_host_id(self):
        """The host whose listings this user manages (``apps.accounts.policies.acting_host_id``)."""
        from .policies import acting_host_id

        return acting_host_id(self)

    @property
    def full_name(self) -> str:
        return f"{self.first_name} {self.last_name}".strip()

    @property
    def display_name(self) -> str:
        """How the product names this person everywhere (``display_name``)."""
        return display_name(
            first_name=self.first_name, last_name=self.last_name, user_name=self.user_name, email=self.email
        )

    @property
    def avatar_url(self) -> str:
        if self.avatar:
            return self.avatar.url
        return settings.STATIC_URL + "img/default-avatar.svg"


class OneTimeCode(models.Model):
    """A 5-digit code mailed to confirm an e-mail address or to reset a password.

    Only a hash of the code is stored. A new code replaces any earlier one of the user.
    """

    class Purpose(models.TextChoices):
        VERIFY_EMAIL = "verifyEmail", "Verify e-mail"
        RESET_PASSWORD = "resetPassword", "Reset password"

    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="one_time_codes")
    purpose = models.CharField(max_length=16, choices=Purpose.choices)
    code_hash = models.CharField(max_length=128)
    created_at = models.DateTimeField(default=timezone.now)
    expires_at = models.DateTimeField()
    attempts = models.PositiveSmallIntegerField(default=0)
    used_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.CheckConstraint(condition=Q(purpose__in=["verifyEmail", "resetPassword"]), name="otp_purpose_valid")
        ]
        indexes = [models.Index(fields=["user", "-created_at"])]

    def __str__(self) -> str:
        return f"{self.purpose} code for {self.user_id}"


# --- Identity verification ------------------------------------------------------


class PrivateStorage(FileSystemStorage):
    """Files only the owner and staff may read: kept outside MEDIA_ROOT and never given a public URL.

    The location is ``PRIVATE_MEDIA_ROOT`` (default ``<DATA_DIR>/private``); they are served by a
    permission-checked view.
    """

    @cached_property
    def base_location(self):
        return str(getattr(settings, "PRIVATE_MEDIA_ROOT", Path(settings.DATA_DIR) / "private"))

    @cached_property
    def base_url(self):
        return None

    def _clear_cached_properties(self, setting, **kwargs):
        super()._clear_cached_properties(setting, **kwargs)
        if setting in ("PRIVATE_MEDIA_ROOT", "DATA_DIR"):
            self.__dict__.pop("base_location", None)
            self.__dict__.pop("location", None)


private_storage = PrivateStorage()


def verification_document_path(instance: "VerificationDocument", filename: str) -> str:
    return f"verification/{instance.user_id}/{filename}"


class VerificationDocument(models.Model):
    """An identity document a host uploaded for staff to check. ``name`` is the original file name."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="verification_documents")
    file = models.FileField(upload_to=verification_document_path, storage=private_storage, max_length=255)
    name = models.CharField(max_length=255)
    content_type = models.CharField(max_length=64)
    size = models.PositiveIntegerField()
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["created_at"]
        indexes = [models.Index(fields=["user", "created_at"])]

    def __str__(self) -> str:
        return self.name

    @property
    def file_name(self) -> str:
        """The stored, unique file name that identifies the document in ``media/delete``."""
        return self.file.name.rsplit("/", 1)[-1]


class VerificationStatus(models.TextChoices):
    PENDING = "pending", "Pending"
    APPROVED = "approved", "Approved"
    REJECTED = "rejected", "Rejected"


class VerificationRequest(models.Model):
    """A host's request to have its identity checked; one pending at a time. Kept after the decision."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="verification_requests")
    status = models.CharField(max_length=16, choices=VerificationStatus.choices, default=VerificationStatus.PENDING)
    created_at = models.DateTimeField(default=timezone.now)
    decided_at = models.DateTimeField(null=True, blank=True)
    decided_by = models.ForeignKey(User, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    reject_reason = models.CharField(max_length=500, blank=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.CheckConstraint(condition=Q(status__in=VerificationStatus.values), name="verification_status_valid"),
            models.UniqueConstraint(
                fields=["user"], condition=Q(status="pending"), name="verification_one_pending_per_user"
            ),
            models.CheckConstraint(
                condition=Q(status="pending", decided_at__isnull=True)
                | (~Q(status="pending") & Q(decided_at__isnull=False)),
                name="verification_decided_has_time",
            ),
            models.CheckConstraint(
                condition=~Q(status="rejected") | ~Q(reject_reason=""), name="verification_reject_has_reason"
            ),
        ]
        indexes = [models.Index(fields=["status", "-created_at"])]

    def __str__(self) -> str:
        return f"Verification of {self.user_id} ({self.status})"


# --- E-mail change ------------------------------------------------------------------


class EmailChange(models.Model):
    """A pending change of a user's e-mail: the code is mailed to the new address; only its hash is kept."""

    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="email_changes")
    new_email = models.EmailField(max_length=254)
    code_hash = models.CharField(max_length=128)
    created_at = models.DateTimeField(default=timezone.now)
    expires_at = models.DateTimeField()
    attempts = models.PositiveSmallIntegerField(default=0)
    used_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["user", "-created_at"])]

    def __str__(self) -> str:
        return f"E-mail change of {self.user_id} to {self.new_email}"
