# Over 450 lines: the sign-in journey (codes, registration, login, tokens, profile) sharing its code and token rules.
"""Account writes: registration, one-time codes, login, password reset, profile."""

import re
import secrets
import time
import uuid
from datetime import timedelta

from allauth.account.models import EmailAddress
from django.conf import settings
from django.contrib.auth.hashers import check_password, make_password
from django.contrib.auth.password_validation import validate_password
from django.contrib.auth.tokens import default_token_generator
from django.core import signing
from django.core.cache import cache
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Sum
from django.utils import timezone
from django.utils.crypto import constant_time_compare, salted_hmac
from rest_framework_simplejwt.token_blacklist.models import BlacklistedToken, OutstandingToken
from rest_framework_simplejwt.tokens import RefreshToken

from apps.core.exceptions import Conflict, Forbidden, InvalidInput, NotAuthenticated, RateLimited
from apps.core.filters import is_uuid
from apps.core.mail import queue_templated_mail

from . import login_limits
from .authentication import LOGIN_CLAIM, PASSWORD_CLAIM, login_end, password_version
from .identifiers import normalize_email
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


def check_password_rules(password: str, user: User | None = None, *, field: str = "password") -> None:
    """The spec's rules, then Django's validators (common passwords, similarity to the account)."""
    problems = password_problems(password)
    if not problems:
        try:
            validate_password(password, user)
        except ValidationError as exc:
            problems = list(exc.messages)
    if problems:
        raise InvalidInput(problems[0], errors={field: problems})


# --- One-time codes -----------------------------------------------------------


def otp_code_hash(user: User, code: str) -> str:
    return salted_hmac("accounts.otp", f"{user.pk}:{code}", secret=settings.SECRET_KEY, algorithm="sha256").hexdigest()


def generate_code() -> str:
    return "".join(secrets.choice("0123456789") for _ in range(settings.OTP_LENGTH))


def otp_seconds_until_resend(*, user: User) -> int:
    latest = user.one_time_codes.order_by("-created_at").first()
    if latest is None:
        return 0
    ready_at = latest.created_at + timedelta(seconds=settings.OTP_RESEND_WAIT_SECONDS)
    return max(0, int((ready_at - timezone.now()).total_seconds() + 0.999))


@transaction.atomic
def otp_issue(
    *, user: User, purpose: str, enforce_wait: bool = True, answer_id: uuid.UUID | None = None
) -> OneTimeCode:
    """Create a fresh code (replacing earlier ones) and mail it after commit.

    Refused with 429 within the resend wait of the last code; the refusal carries ``answer_id``
    (the address's code handle where the caller did not prove who it is) or else the account's id.
    """
    User.objects.select_for_update().filter(pk=user.pk).first()  # serialise concurrent resends
    if enforce_wait:
        wait = otp_seconds_until_resend(user=user)
        if wait:
            raise RateLimited(
                f"Please wait {wait} seconds before requesting a new code.",
                retry_after=wait,
                data={"retryAfter": wait, "userID": str(answer_id or user.pk)},
            )
    now = timezone.now()
    user.one_time_codes.filter(used_at__isnull=True).update(used_at=now)
    code = generate_code()
    otp = OneTimeCode.objects.create(
        user=user,
        purpose=purpose,
        code_hash=otp_code_hash(user, code),
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


def otp_resend(*, email: str) -> uuid.UUID:
    """Mail a new code; returns the address's code handle, known account or not (``code_handle``)."""
    user = User.objects.alive().filter(email=normalize_email(email)).first()
    if user is None:
        return _unknown_account_code_sent(email)
    latest = user.one_time_codes.order_by("-created_at").first()
    if latest is not None:
        purpose = latest.purpose
    else:
        purpose = OneTimeCode.Purpose.RESET_PASSWORD if user.account_verified else OneTimeCode.Purpose.VERIFY_EMAIL
    return _code_sent(user, purpose=purpose)


DAY_SECONDS = 24 * 60 * 60


def _wrong_code_message(left: int) -> str:
    if left:
        return f"The code is not correct. {left} {'try' if left == 1 else 'tries'} left."
    return "The code is not correct. Too many wrong tries: request a new code."


def _client_wrong_codes_key(client: str) -> str:
    return f"accounts:otp-wrong:{client}"


def _check_daily_caps(*, user: User | None, client: str) -> None:
    """Wrong codes are capped per day: per account (all its codes) and per client address."""
    message = "Too many wrong codes today. Please try again tomorrow."
    if client and int(cache.get(_client_wrong_codes_key(client)) or 0) >= settings.OTP_DAILY_WRONG_PER_CLIENT:
        raise RateLimited(message, retry_after=DAY_SECONDS, errors={"otp": [message]})
    if user is None:
        return
    since = timezone.now() - timedelta(seconds=DAY_SECONDS)
    recent = user.one_time_codes.filter(created_at__gte=since, attempts__gt=0)
    wrong = recent.aggregate(total=Sum("attempts"))["total"] or 0
    if wrong >= settings.OTP_DAILY_WRONG_PER_ACCOUNT:
        oldest = recent.order_by("created_at").values_list("created_at", flat=True).first()
        wait = max(1, int((oldest + timedelta(seconds=DAY_SECONDS) - timezone.now()).total_seconds()))
        raise RateLimited(message, retry_after=wait, errors={"otp": [message]})


def _count_wrong_code(client: str) -> None:
    if client:
        key = _client_wrong_codes_key(client)
        cache.add(key, 0, timeout=DAY_SECONDS)
        cache.incr(key)


def otp_verify(*, user_id, otp: str, client: str = "") -> tuple[User, str]:
    """Check the user's current code. Returns the user and the code's purpose.

    A wrong code counts against the code (the count is kept although the request fails);
    after the fifth wrong try the code is dead and a new one must be requested. Wrong codes are
    also capped per day, per account and per ``client`` address. An id that matches no account
    (such as the one forgot-password gives for an unknown e-mail) fails like a wrong code.
    ``user_id`` is an account's id or the code handle that forgot-password and resend answer.
    """
    user = User.objects.alive().filter(pk=user_id).first() or _code_handle_user(user_id)
    _check_daily_caps(user=user, client=client)
    if user is None:
        _count_wrong_code(client)
        _unknown_account_wrong_code(str(user_id))
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
        if not constant_time_compare(code.code_hash, otp_code_hash(user, otp)):
            code.attempts += 1
            code.save(update_fields=["attempts"])
            wrong_message = _wrong_code_message(settings.OTP_MAX_ATTEMPTS - code.attempts)
        else:
            code.used_at = timezone.now()
            code.save(update_fields=["used_at"])
            if not user.account_verified:
                user.account_verified = True
                user.save(update_fields=["account_verified", "updated_at"])
                EmailAddress.objects.filter(user=user, email=user.email).update(verified=True)
    if wrong_message:
        _count_wrong_code(client)
        raise InvalidInput(wrong_message, errors={"otp": [wrong_message]})
    return user, code.purpose


# --- Unknown e-mails answer like known ones -----------------------------------------------------


def _address_id(salt: str, email: str) -> uuid.UUID:
    digest = salted_hmac(salt, normalize_email(email), algorithm="sha256").digest()
    return uuid.UUID(bytes=digest[:16], version=4)


def unknown_account_id(email: str) -> uuid.UUID:
    """A stable id for an e-mail without an account: the same shape as a real one, never a real one."""
    return _address_id("accounts.unknown-email", email)


def code_handle(email: str) -> uuid.UUID:
    """What forgot-password and resend answer as ``userID`` for every address, with an account or not:
    stable, the shape of an account id and never one, so the answer does not tell whether the address
    has an account nor which (docs/decisions/security/forgot-password-answers-a-code-handle.md).
    verify-otp takes it in place of the account's id while the code it stands for is valid."""
    return _address_id("accounts.code-handle", email)


def _code_handle_key(handle) -> str:
    return f"accounts:code-handle:{handle}"


def _code_sent(user: User, *, purpose: str) -> uuid.UUID:
    handle = code_handle(user.email)
    otp_issue(user=user, purpose=purpose, answer_id=handle)
    cache.set(_code_handle_key(handle), str(user.pk), timeout=int(settings.OTP_VALID_FOR.total_seconds()))
    return handle


def _code_handle_user(handle) -> User | None:
    user_id = cache.get(_code_handle_key(handle))
    return User.objects.alive().filter(pk=user_id).first() if user_id else None


def _unknown_account_code_sent(email: str) -> uuid.UUID:
    """Forgot-password or resend for an unknown e-mail: the same waits and answers as for an account."""
    fake_id = code_handle(email)
    key = f"accounts:unknown-sent:{fake_id}"
    sent_at = cache.get(key)
    if sent_at is not None:
        wait = max(0, int(sent_at + settings.OTP_RESEND_WAIT_SECONDS - time.time() + 0.999))
        if wait:
            raise RateLimited(
                f"Please wait {wait} seconds before requesting a new code.",
                retry_after=wait,
                data={"retryAfter": wait, "userID": str(fake_id)},
            )
    cache.set(key, time.time(), timeout=int(settings.OTP_VALID_FOR.total_seconds()))
    cache.delete(f"accounts:unknown-tries:{fake_id}")
    return fake_id


def _unknown_account_wrong_code(user_id: str) -> None:
    key = f"accounts:unknown-tries:{user_id}"
    cache.add(key, 0, timeout=int(settings.OTP_VALID_FOR.total_seconds()))
    tries = cache.incr(key)
    if tries > settings.OTP_MAX_ATTEMPTS:
        message = "Too many wrong tries. Request a new code."
        raise RateLimited(message, retry_after=settings.OTP_RESEND_WAIT_SECONDS, errors={"otp": [message]})
    message = _wrong_code_message(settings.OTP_MAX_ATTEMPTS - tries)
    raise InvalidInput(message, errors={"otp": [message]})


# --- Registration and login ---------------------------------------------------


@transaction.atomic
def user_register(*, email: str, password: str, role: str, first_name: str = "", last_name: str = "") -> User:
    if role not in SELF_REGISTRATION_ROLES:
        raise InvalidInput("Role must be renter or host.", errors={"role": ["Role must be renter or host."]})
    """Create an unverified account and mail it a code.

    An address that already has an account gets the same answer (a stand-in user of the same shape,
    whose id verifies nothing), and its owner gets a mail saying someone tried, so the answer never
    tells whether an address is registered (docs/security.md, Round two).
    """
    email = normalize_email(email)
    check_password_rules(password, User(email=email, first_name=first_name, last_name=last_name))
    owner = User.objects.filter(email=email).first()
    if owner is not None:
        make_password(password)  # as long as creating an account takes
        tell_owner_once(owner, event="register")
        return User(id=unknown_account_id(email), email=email, role=role)
    user = User(email=email, role=role, first_name=first_name, last_name=last_name)
    user.set_password(password)
    user.save()
    EmailAddress.objects.create(user=user, email=email, primary=True, verified=False)
    otp_issue(user=user, purpose=OneTimeCode.Purpose.VERIFY_EMAIL, enforce_wait=False)
    return user


def tell_owner_once(owner: User, *, event: str) -> None:
    """Mail the owner of an address that someone tried to register or attach to another account
    (at most one such mail per address and event in the code-resend wait)."""
    if owner.is_deleted:
        return
    if not cache.add(f"accounts:owner-told:{event}:{owner.pk}", 1, timeout=settings.OTP_RESEND_WAIT_SECONDS):
        return
    queue_templated_mail(
        to=owner.email, template="security_notice", context={"event": event, "site_url": settings.SITE_URL}
    )


class UnverifiedAccount(Forbidden):
    default_message = "Your email is not verified yet. We sent you a new code."


# A hash to check unknown e-mails against, so they take as long as known ones.
_UNKNOWN_ACCOUNT_PASSWORD = make_password(secrets.token_urlsafe(16))


def user_login(*, email: str, password: str) -> User:
    """Check the credentials; an unverified account gets a fresh code and a 403 with its userID.

    Failed logins are counted per account (``login_limits``): after a few, the account refuses
    logins for a growing delay and its owner is told by mail. Unknown e-mails cost one password
    check too, and are counted the same way, so neither timing nor answers tell them apart.
    """
    wait = login_limits.seconds_locked(email)
    if wait:
        raise RateLimited(
            f"Too many failed sign-in attempts for this account. Please try again in {wait} seconds.",
            retry_after=wait,
        )
    user = User.objects.filter(email=normalize_email(email)).first()
    if user is None:
        check_password(password, _UNKNOWN_ACCOUNT_PASSWORD)
        correct = False
    else:
        correct = check_password(password, user.password)
    if not correct:
        failures = login_limits.record_failure(email)
        if user is not None and failures == settings.LOGIN_FAILURES_BEFORE_DELAY and user.is_active:
            queue_templated_mail(
                to=user.email,
                template="login_failures",
                context={"failures": failures, "site_url": settings.SITE_URL},
            )
        raise NotAuthenticated("Invalid email or password.")
    login_limits.clear(email)
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


def password_forgot(*, email: str) -> uuid.UUID:
    """Mail a reset code; returns the address's code handle, known account or not (``code_handle``)."""
    user = User.objects.alive().filter(email=normalize_email(email)).first()
    if user is None:
        return _unknown_account_code_sent(email)
    return _code_sent(user, purpose=OneTimeCode.Purpose.RESET_PASSWORD)


@transaction.atomic
def password_reset(*, user: User, email: str, password: str) -> User:
    if normalize_email(user.email) != normalize_email(email):
        raise Forbidden("This reset is for another email address.")
    check_password_rules(password, user)
    user.set_password(password)
    user.save(update_fields=["password", "updated_at"])
    tokens_revoke_all(user=user)
    return user


# --- Tokens -------------------------------------------------------------------


def tokens_for(user: User) -> dict[str, str]:
    """A new login: a refresh token and an access token, both tied to this login and this password."""
    refresh = RefreshToken.for_user(user)
    refresh[LOGIN_CLAIM] = refresh["jti"]
    refresh[PASSWORD_CLAIM] = password_version(user)
    return {"token": str(refresh.access_token), "refreshToken": str(refresh)}


def tokens_end_login(*, refresh_token: str | None = None, access_token=None, session_key: str | None = None) -> None:
    """Logout: the refresh token is blacklisted, every access token of the login stops working, and
    the login's open sockets (and the browser session's) are sent a close event."""
    from rest_framework_simplejwt.exceptions import TokenError

    from apps.notifications.realtime import end_sockets

    from .ws_auth import login_group, session_group

    sids = []
    if access_token is not None:
        sids.append(access_token.get(LOGIN_CLAIM))
    if refresh_token:
        try:
            refresh = RefreshToken(refresh_token)
        except TokenError:
            refresh = None  # already expired or revoked: the session ends all the same
        if refresh is not None:
            sids.append(refresh.get(LOGIN_CLAIM))
            refresh.blacklist()
    sids = [str(sid) for sid in dict.fromkeys(sids) if sid]
    for sid in sids:
        login_end(sid)
    groups = [login_group(sid) for sid in sids] + ([session_group(session_key)] if session_key else [])
    end_sockets(groups)


# The password-reset token: good for one reset only (it is bound to the password it replaces) and for
# nothing else (it is not a sign-in token), for as long as a code is valid.
_RESET_SALT = "accounts.password-reset"


def password_reset_token_for(user: User) -> str:
    return signing.dumps({"u": str(user.pk), "t": default_token_generator.make_token(user)}, salt=_RESET_SALT)


def password_reset_token_user(token: str) -> User | None:
    try:
        data = signing.loads(token, salt=_RESET_SALT, max_age=settings.OTP_VALID_FOR)
    except signing.BadSignature:
        return None
    if not isinstance(data, dict):
        return None
    user = User.objects.alive().filter(pk=data.get("u")).first() if is_uuid(data.get("u")) else None
    if user is None or not default_token_generator.check_token(user, str(data.get("t", ""))):
        return None
    return user


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
    old_avatar = user.avatar.name if user.avatar else ""
    changed = []
    for field in PROFILE_FIELDS:
        if field in data:
            setattr(user, field, data[field])
            changed.append(field)
    if changed:
        user.save(update_fields=[*changed, "updated_at"])
    if "avatar" in changed and old_avatar and old_avatar != user.avatar.name:
        # The replaced picture leaves storage once the change is committed.
        storage = user.avatar.storage
        transaction.on_commit(lambda: storage.delete(old_avatar))
    return user
