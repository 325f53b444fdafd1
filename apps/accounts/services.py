"""Account writes: registration, one-time codes, login, password reset, profile."""

import re
import secrets
from datetime import timedelta

from allauth.account.models import EmailAddress
from django.conf import settings
from django.contrib.auth.hashers import check_password
from django.db import transaction
from django.utils import timezone
from django.utils.crypto import constant_time_compare, salted_hmac
from rest_framework_simplejwt.token_blacklist.models import BlacklistedToken, OutstandingToken
from rest_framework_simplejwt.tokens import RefreshToken

from apps.core.exceptions import Conflict, Forbidden, InvalidInput, NotAuthenticated, NotFound, RateLimited
from apps.core.mail import queue_templated_mail

from .models import SELF_REGISTRATION_ROLES, OneTimeCode, User

# --- Password rules (spec section 5, register) --------------------------------

PASSWORD_MIN_LENGTH = 8
PASSWORD_MAX_LENGTH = 128
PASSWORD_SYMBOLS = "!#@$%^&*)(+=._-"
_ALLOWED_PASSWORD = re.compile(r"^[A-Za-z0-9!\"#$%&'()*+,\-./:;<=>?@\[\\\]^_`{|}~]+$")


def password_problems(password: str) -> list[str]:
    """Every rule the password breaks, in the spec's words."""
    problems = []
    if len(password) < PASSWORD_MIN_LENGTH:
        problems.append("Password must be at least 8 characters long")
    if len(password) > PASSWORD_MAX_LENGTH:
        problems.append("Password must be at most 128 characters long")
    if not re.search(r"[A-Z]", password):
        problems.append("Password Should Contain Atleast One Uppercase Letter.")
    if not re.search(r"[0-9]", password):
        problems.append("Password Should Contain Atleast One Number.")
    if not re.search(r"[a-z]", password):
        problems.append("Password Should Contain Atleast One Lowercase Letter.")
    if not any(symbol in password for symbol in PASSWORD_SYMBOLS):
        problems.append(f"Password Should Contain Atleast One Special Character ({PASSWORD_SYMBOLS}).")
    if password and not _ALLOWED_PASSWORD.match(password):
        problems.append("Password can contain only letters, digits and common punctuation.")
    return problems


def _check_password_rules(password: str) -> None:
    problems = password_problems(password)
    if problems:
        raise InvalidInput(problems[0], errors={"password": problems})


# --- One-time codes -----------------------------------------------------------


def _code_hash(user: User, code: str) -> str:
    return salted_hmac("accounts.otp", f"{user.pk}:{code}", secret=settings.SECRET_KEY, algorithm="sha256").hexdigest()


def _generate_code() -> str:
    return "".join(secrets.choice("0123456789") for _ in range(settings.OTP_LENGTH))


def otp_seconds_until_resend(*, user: User) -> int:
    latest = user.one_time_codes.order_by("-created_at").first()
    if latest is None:
        return 0
    ready_at = latest.created_at + timedelta(seconds=settings.OTP_RESEND_WAIT_SECONDS)
    return max(0, int((ready_at - timezone.now()).total_seconds() + 0.999))


@transaction.atomic
def otp_issue(*, user: User, purpose: str, enforce_wait: bool = True) -> OneTimeCode:
    """Create a fresh code (replacing earlier ones) and mail it after commit.

    Refused with 429 within the resend wait of the last code.
    """
    User.objects.select_for_update().filter(pk=user.pk).first()  # serialise concurrent resends
    if enforce_wait:
        wait = otp_seconds_until_resend(user=user)
        if wait:
            raise RateLimited(
                f"Please wait {wait} seconds before requesting a new code.",
                retry_after=wait,
                data={"retryAfter": wait, "userID": str(user.pk)},
            )
    now = timezone.now()
    user.one_time_codes.filter(used_at__isnull=True).update(used_at=now)
    code = _generate_code()
    otp = OneTimeCode.objects.create(
        user=user,
        purpose=purpose,
        code_hash=_code_hash(user, code),
        created_at=now,
        expires_at=now + settings.OTP_VALID_FOR,
    )
    queue_templated_mail(
        to=user.email,
        template="otp",
        context={
            "code": code,
            "purpose": purpose,
            "valid_minutes": int(settings.OTP_VALID_FOR.total_seconds() // 60),
            "site_url": settings.SITE_URL,
        },
    )
    return otp


def otp_resend(*, email: str) -> User:
    user = _user_by_email(email)
    latest = user.one_time_codes.order_by("-created_at").first()
    if latest is not None:
        purpose = latest.purpose
    else:
        purpose = OneTimeCode.Purpose.RESET_PASSWORD if user.account_verified else OneTimeCode.Purpose.VERIFY_EMAIL
    otp_issue(user=user, purpose=purpose)
    return user


def otp_verify(*, user_id, otp: str) -> tuple[User, str]:
    """Check the user's current code. Returns the user and the code's purpose.

    A wrong code counts against the code (the count is kept although the request fails);
    after the fifth wrong try the code is dead and a new one must be requested.
    """
    user = User.objects.alive().filter(pk=user_id).first()
    if user is None:
        raise NotFound("No account matches this user ID.", errors={"userID": ["No account matches this user ID."]})
    wrong_message = None
    with transaction.atomic():
        code = user.one_time_codes.select_for_update().filter(used_at__isnull=True).order_by("-created_at").first()
        if code is None:
            message = "There is no active code. Request a new one."
            raise InvalidInput(message, errors={"otp": [message]})
        if code.attempts >= settings.OTP_MAX_ATTEMPTS:
            message = "Too many wrong tries. Request a new code."
            raise RateLimited(message, retry_after=otp_seconds_until_resend(user=user), errors={"otp": [message]})
        if code.expires_at <= timezone.now():
            message = "This code has expired. Request a new one."
            raise InvalidInput(message, errors={"otp": [message]})
        if not constant_time_compare(code.code_hash, _code_hash(user, otp)):
            code.attempts += 1
            code.save(update_fields=["attempts"])
            left = settings.OTP_MAX_ATTEMPTS - code.attempts
            wrong_message = (
                f"The code is not correct. {left} {'try' if left == 1 else 'tries'} left."
                if left
                else "The code is not correct. Too many wrong tries: request a new code."
            )
        else:
            code.used_at = timezone.now()
            code.save(update_fields=["used_at"])
            if not user.account_verified:
                user.account_verified = True
                user.save(update_fields=["account_verified", "updated_at"])
                EmailAddress.objects.filter(user=user, email__iexact=user.email).update(verified=True)
    if wrong_message:
        raise InvalidInput(wrong_message, errors={"otp": [wrong_message]})
    return user, code.purpose


# --- Registration and login ---------------------------------------------------


def _user_by_email(email: str) -> User:
    user = User.objects.alive().filter(email__iexact=email.strip()).first()
    if user is None:
        raise NotFound("No account found with this email.", errors={"email": ["No account found with this email."]})
    return user


@transaction.atomic
def user_register(*, email: str, password: str, role: str, first_name: str = "", last_name: str = "") -> User:
    if role not in SELF_REGISTRATION_ROLES:
        raise InvalidInput("Role must be renter or host.", errors={"role": ["Role must be renter or host."]})
    _check_password_rules(password)
    email = email.strip().lower()
    if User.objects.filter(email__iexact=email).exists():
        raise Conflict(
            "An account with this email already exists.",
            errors={"email": ["An account with this email already exists."]},
        )
    user = User(email=email, role=role, first_name=first_name, last_name=last_name)
    user.set_password(password)
    user.save()
    EmailAddress.objects.create(user=user, email=email, primary=True, verified=False)
    otp_issue(user=user, purpose=OneTimeCode.Purpose.VERIFY_EMAIL, enforce_wait=False)
    return user


class UnverifiedAccount(Forbidden):
    default_message = "Your email is not verified yet. We sent you a new code."


def user_login(*, email: str, password: str) -> User:
    """Check the credentials; an unverified account gets a fresh code and a 403 with its userID."""
    user = User.objects.filter(email__iexact=email.strip()).first()
    if user is None or not check_password(password, user.password):
        raise NotAuthenticated("Invalid email or password.")
    if user.is_deleted:
        raise Forbidden("This account has been deleted.")
    if not user.is_active:
        raise Forbidden("This account is suspended. Please contact support.")
    if not user.account_verified:
        try:
            otp_issue(user=user, purpose=OneTimeCode.Purpose.VERIFY_EMAIL)
            message = UnverifiedAccount.default_message
        except RateLimited:
            message = "Your email is not verified yet. Enter the code we sent you."
        raise UnverifiedAccount(message, data={"userID": str(user.pk)})
    return user


def password_forgot(*, email: str) -> User:
    user = _user_by_email(email)
    otp_issue(user=user, purpose=OneTimeCode.Purpose.RESET_PASSWORD)
    return user


@transaction.atomic
def password_reset(*, user: User, email: str, password: str) -> User:
    if user.email.lower() != email.strip().lower():
        raise Forbidden("This reset is for another email address.")
    _check_password_rules(password)
    user.set_password(password)
    user.save(update_fields=["password", "updated_at"])
    tokens_revoke_all(user=user)
    return user


# --- Tokens -------------------------------------------------------------------

PASSWORD_RESET_CLAIM = "passwordReset"


def tokens_for(user: User, *, password_reset: bool = False) -> dict[str, str]:
    refresh = RefreshToken.for_user(user)
    access = refresh.access_token
    if password_reset:
        access[PASSWORD_RESET_CLAIM] = True
    return {"token": str(access), "refreshToken": str(refresh)}


def tokens_revoke_all(*, user: User) -> None:
    for token in OutstandingToken.objects.filter(user=user).exclude(blacklistedtoken__isnull=False):
        BlacklistedToken.objects.get_or_create(token=token)


# --- Profile ------------------------------------------------------------------

PROFILE_FIELDS = (
    "first_name",
    "last_name",
    "user_name",
    "bio",
    "native_language",
    "avatar",
    "emergency_email",
    "emergency_phone",
    "state",
    "country",
    "city",
    "gender",
    "emergency_contact_name",
    "emergency_relationship",
    "social_media_links",
    "fmc_token",
)


@transaction.atomic
def profile_update(*, user: User, actor: User, data: dict) -> User:
    if actor.pk != user.pk:
        raise Forbidden("You can only edit your own profile.")
    user_name = data.get("user_name")
    if user_name and User.objects.filter(user_name__iexact=user_name).exclude(pk=user.pk).exists():
        raise Conflict("This user name is taken.", errors={"userName": ["This user name is taken."]})
    changed = []
    for field in PROFILE_FIELDS:
        if field in data:
            setattr(user, field, data[field])
            changed.append(field)
    if changed:
        user.save(update_fields=[*changed, "updated_at"])
    return user
