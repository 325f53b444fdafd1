"""A user's general settings: notification choices, password, e-mail address, deleting the account."""

import secrets
from datetime import timedelta
from decimal import Decimal

from allauth.account.models import EmailAddress
from django.conf import settings
from django.contrib.auth.hashers import check_password
from django.db import transaction
from django.utils import timezone
from django.utils.crypto import constant_time_compare

from apps.core.exceptions import Conflict, Forbidden, InvalidInput, RateLimited
from apps.core.mail import queue_templated_mail
from apps.notifications.kinds import effective_settings, normalize_settings

from .identifiers import normalize_email
from .models import EmailChange, Role, User
from .policies import close_account_refusal
from .services import check_password_rules, generate_code, otp_code_hash, tell_owner_once, tokens_revoke_all
from .services_users import apply_status

WRONG_PASSWORD = "Current password is incorrect."


def _check_current_password(user: User, password: str, field: str = "currentPassword") -> None:
    if not password or not check_password(password, user.password):
        raise InvalidInput(WRONG_PASSWORD, errors={field: [WRONG_PASSWORD]})


# --- Notifications ------------------------------------------------------------------


@transaction.atomic
def notification_settings_update(*, user: User, data: object) -> dict[str, dict[str, bool]]:
    """Merge the sent choices (kind -> channel -> bool) into the user's stored overrides."""
    try:
        changes = normalize_settings(data)
    except ValueError as exc:
        raise InvalidInput(str(exc), errors={"settings": [str(exc)]})
    user = User.objects.select_for_update().get(pk=user.pk)
    stored = user.notification_settings if isinstance(user.notification_settings, dict) else {}
    for kind, channels in changes.items():
        stored[kind] = {**(stored.get(kind) if isinstance(stored.get(kind), dict) else {}), **channels}
    user.notification_settings = stored
    user.save(update_fields=["notification_settings", "updated_at"])
    return effective_settings(stored)


# --- Password ----------------------------------------------------------------------------


@transaction.atomic
def password_change(*, user: User, current_password: str, new_password: str) -> User:
    """Change the password (the current one is required); every other session is signed out."""
    _check_current_password(user, current_password)
    check_password_rules(new_password, user)
    if check_password(new_password, user.password):
        message = "The new password must be different from the current one."
        raise InvalidInput(message, errors={"newPassword": [message]})
    user.set_password(new_password)
    user.save(update_fields=["password", "updated_at"])
    tokens_revoke_all(user=user)
    queue_templated_mail(
        to=user.email, template="security_notice", context={"event": "password", "site_url": settings.SITE_URL}
    )
    return user


# --- E-mail change ----------------------------------------------------------------------


def _email_taken(email: str, *, exclude: User) -> bool:
    return User.objects.filter(email=normalize_email(email)).exclude(pk=exclude.pk).exists()


@transaction.atomic
def email_change_request(*, user: User, password: str, new_email: str) -> EmailChange:
    """Mail a 5-digit code to the new address; the change happens when the code is confirmed.

    An address that belongs to another account answers alike: its owner is told by mail instead,
    and the pending change has a code nobody was sent, so every code is wrong (no enumeration).
    """
    _check_current_password(user, password, field="password")
    new_email = normalize_email(new_email)
    if new_email == normalize_email(user.email):
        message = "This is already your email address."
        raise InvalidInput(message, errors={"email": [message]})
    owner = User.objects.filter(email=new_email).exclude(pk=user.pk).first()
    User.objects.select_for_update().filter(pk=user.pk).first()
    latest = user.email_changes.order_by("-created_at").first()
    if latest is not None:
        ready_at = latest.created_at + timedelta(seconds=settings.OTP_RESEND_WAIT_SECONDS)
        wait = int((ready_at - timezone.now()).total_seconds() + 0.999)
        if wait > 0:
            raise RateLimited(f"Please wait {wait} seconds before requesting a new code.", retry_after=wait)
    now = timezone.now()
    user.email_changes.filter(used_at__isnull=True).update(used_at=now)
    code = generate_code() if owner is None else secrets.token_hex(16)  # the latter is never a 5-digit code
    change = EmailChange.objects.create(
        user=user,
        new_email=new_email,
        code_hash=otp_code_hash(user, f"email:{new_email}:{code}"),
        created_at=now,
        expires_at=now + settings.OTP_VALID_FOR,
    )
    if owner is not None:
        tell_owner_once(owner, event="email_taken")
        return change
    queue_templated_mail(
        to=new_email,
        template="otp",
        context={
            "code": code,
            "purpose": "changeEmail",
            "valid_minutes": int(settings.OTP_VALID_FOR.total_seconds() // 60),
            "site_url": settings.SITE_URL,
        },
    )
    return change


def email_change_confirm(*, user: User, otp: str) -> User:
    """Check the code mailed to the new address and switch the account to it.

    Wrong codes count against the code (kept although the request fails); five wrong tries kill it.
    """
    wrong_message = None
    with transaction.atomic():
        change = user.email_changes.select_for_update().filter(used_at__isnull=True).order_by("-created_at").first()
        if change is None:
            message = "There is no pending email change. Request a new code."
            raise InvalidInput(message, errors={"otp": [message]})
        if change.attempts >= settings.OTP_MAX_ATTEMPTS:
            message = "Too many wrong tries. Request a new code."
            raise InvalidInput(message, errors={"otp": [message]})
        if change.expires_at <= timezone.now():
            message = "This code has expired. Request a new one."
            raise InvalidInput(message, errors={"otp": [message]})
        if not constant_time_compare(change.code_hash, otp_code_hash(user, f"email:{change.new_email}:{otp}")):
            change.attempts += 1
            change.save(update_fields=["attempts"])
            left = settings.OTP_MAX_ATTEMPTS - change.attempts
            wrong_message = (
                f"The code is not correct. {left} {'try' if left == 1 else 'tries'} left."
                if left
                else "The code is not correct. Too many wrong tries: request a new code."
            )
        else:
            if _email_taken(change.new_email, exclude=user):
                message = "An account with this email already exists."
                raise Conflict(message, errors={"email": [message]})
            old_email = user.email
            change.used_at = timezone.now()
            change.save(update_fields=["used_at"])
            user = User.objects.select_for_update().get(pk=user.pk)
            user.email = change.new_email
            user.save(update_fields=["email", "updated_at"])
            EmailAddress.objects.filter(user=user).delete()
            EmailAddress.objects.create(user=user, email=user.email, primary=True, verified=True)
            queue_templated_mail(
                to=old_email,
                template="security_notice",
                context={"event": "email", "new_email": user.email, "site_url": settings.SITE_URL},
            )
    if wrong_message:
        raise InvalidInput(wrong_message, errors={"otp": [wrong_message]})
    return user


# --- Host tax --------------------------------------------------------------------------------


@transaction.atomic
def tax_update(*, user: User, tax: Decimal) -> User:
    """Set the host's tax percent (0 to 100), used for the tax line of its future bookings."""
    if user.role != Role.HOST:
        raise Forbidden("Only a host sets a tax percent.")
    if tax < 0 or tax > 100:
        message = "Tax must be a number from 0 to 100."
        raise InvalidInput(message, errors={"tax": [message]})
    user = User.objects.select_for_update().get(pk=user.pk)
    user.tax = tax
    user.save(update_fields=["tax", "updated_at"])
    return user


# --- Deleting the account --------------------------------------------------------------------


@transaction.atomic
def account_delete(*, user: User, password: str) -> User:
    """Soft-delete one's own account (password required). A host's subHosts go with it."""
    _check_current_password(user, password, field="password")
    refusal = close_account_refusal(user)
    if refusal:
        raise refusal
    user = User.objects.select_for_update().get(pk=user.pk)
    now = timezone.now()
    apply_status(user, "deleted", now)
    if user.role == Role.HOST:
        for sub_host in User.objects.select_for_update().filter(host=user, is_deleted=False):
            apply_status(sub_host, "deleted", now)
    return user
