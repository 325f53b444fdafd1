"""Back-office writes on accounts: adding hosts, subHosts and moderators, invitations, suspension,
soft deletion and restore, identity verification.

New accounts made by someone else get no password: they receive an e-mail with a link to choose
one (Django's password-reset token generator: the link dies once a password is set, and after
PASSWORD_RESET_TIMEOUT).
"""

import logging

from allauth.account.models import EmailAddress
from django.conf import settings
from django.contrib.auth.tokens import default_token_generator
from django.db import transaction
from django.utils import timezone
from django.utils.encoding import force_bytes, force_str
from django.utils.http import urlsafe_base64_decode, urlsafe_base64_encode

from apps.core.exceptions import Conflict, Forbidden, InvalidInput, NotFound
from apps.core.filters import is_uuid
from apps.core.mail import queue_templated_mail
from apps.core.statemachine import record
from apps.notifications.services import notify

from .identifiers import normalize_email
from .models import STAFF_ROLES, Role, User
from .policies import (
    ACCOUNT_STATUSES,
    account_status,
    invitation_refusal,
    manage_refusal,
    role_change_refusal,
    status_refusal,
)
from .services import check_password_rules, tokens_revoke_all

logger = logging.getLogger(__name__)

ROLE_WORDS = {Role.HOST: "host", Role.SUB_HOST: "sub-host", Role.MODERATOR: "moderator", Role.RENTER: "renter"}


def user_notify(user: User, kind: str, content: str, link: str = "") -> None:
    """Tell ``user`` through the notifications app (in-app, e-mail and push as their settings say)."""
    notify(user=user, kind=kind, content=content, link=link)


# --- Invitations ------------------------------------------------------------------


def invitation_link(user: User) -> str:
    uid = urlsafe_base64_encode(force_bytes(user.pk))
    token = default_token_generator.make_token(user)
    return f"{settings.SITE_URL}/set-password?uid={uid}&token={token}"


def invitation_send(*, user: User, invited_by: User | None = None) -> None:
    """Mail ``user`` a link to choose a password (queued after commit)."""
    queue_templated_mail(
        to=user.email,
        template="invitation",
        context={
            "name": user.first_name,
            "role": ROLE_WORDS.get(user.role, user.role),
            "invited_by": invited_by.display_name if invited_by else "",
            "host_name": user.host.display_name if user.host_id else "",
            "link": invitation_link(user),
            "valid_days": max(1, settings.PASSWORD_RESET_TIMEOUT // 86400),
            "site_url": settings.SITE_URL,
        },
    )


INVALID_LINK = "This link is invalid or has expired. Ask for a new invitation."


def invitation_user(*, uid: str, token: str) -> User:
    """The account a set-password link is for, if the link is still valid."""
    try:
        user_id = force_str(urlsafe_base64_decode(uid))
    except (TypeError, ValueError, UnicodeDecodeError):
        raise InvalidInput(INVALID_LINK)
    user = User.objects.filter(pk=user_id, is_deleted=False).first() if is_uuid(user_id) else None
    if user is None or not default_token_generator.check_token(user, token):
        raise InvalidInput(INVALID_LINK)
    return user


@transaction.atomic
def password_set_from_link(*, uid: str, token: str, password: str) -> User:
    """Choose a password from an invitation (or any set-password link). Confirms the e-mail too."""
    user = invitation_user(uid=uid, token=token)
    check_password_rules(password, user)
    user.set_password(password)
    user.account_verified = True
    user.save(update_fields=["password", "account_verified", "updated_at"])
    EmailAddress.objects.filter(user=user, email=user.email).update(verified=True)
    tokens_revoke_all(user=user)
    return user


@transaction.atomic
def invitation_resend(*, actor: User, user: User) -> User:
    refusal = invitation_refusal(actor, user)
    if refusal is not None:
        raise refusal
    invitation_send(user=user, invited_by=actor)
    return user


# --- Adding accounts -----------------------------------------------------------------


def _create_invited(
    *, email: str, role: str, first_name: str, last_name: str, host: User | None = None, **extra
) -> User:
    email = normalize_email(email)
    if User.objects.filter(email=email).exists():
        raise Conflict(
            "An account with this email already exists.",
            errors={"email": ["An account with this email already exists."]},
        )
    user = User(email=email, role=role, first_name=first_name, last_name=last_name, host=host, **extra)
    user.set_unusable_password()
    user.save()
    EmailAddress.objects.create(user=user, email=email, primary=True, verified=False)
    return user


@transaction.atomic
def host_add(*, actor: User, email: str, first_name: str, last_name: str, user_name: str = "", tax=None) -> User:
    if actor.role not in STAFF_ROLES:
        raise Forbidden("Only the admin or a moderator can add a host.")
    if user_name and User.objects.filter(user_name__iexact=user_name).exists():
        raise Conflict("This user name is taken.", errors={"userName": ["This user name is taken."]})
    extra = {"user_name": user_name}
    if tax is not None:
        extra["tax"] = tax
    user = _create_invited(email=email, role=Role.HOST, first_name=first_name, last_name=last_name, **extra)
    invitation_send(user=user, invited_by=actor)
    return user


@transaction.atomic
def sub_host_add(*, actor: User, email: str, first_name: str, last_name: str) -> User:
    if actor.role != Role.HOST:
        raise Forbidden("Only a host can add sub-hosts.")
    user = _create_invited(email=email, role=Role.SUB_HOST, first_name=first_name, last_name=last_name, host=actor)
    invitation_send(user=user, invited_by=actor)
    return user


@transaction.atomic
def moderator_add(*, actor: User, email: str, first_name: str, last_name: str) -> User:
    if actor.role != Role.ADMIN:
        raise Forbidden("Only the admin can add moderators.")
    user = _create_invited(email=email, role=Role.MODERATOR, first_name=first_name, last_name=last_name)
    invitation_send(user=user, invited_by=actor)
    return user


# --- Status: suspend, delete, restore -----------------------------------------------


def _check_may_manage(actor: User, target: User) -> None:
    refusal = manage_refusal(actor, target)
    if refusal is not None:
        raise refusal


ACCOUNT_HISTORY = "account"  # the status history's name for an account's active/suspended/deleted
ROLE_HISTORY = "role"  # and for its role


def apply_status(user: User, status: str, now, *, actor: User | None = None, reason: str = "") -> None:
    before = account_status(user)
    if status == "suspended":
        user.is_active = False
        user.is_deleted = False
        user.deleted_at = None
    elif status == "deleted":
        user.is_active = False
        user.is_deleted = True
        user.deleted_at = now
    else:
        user.is_active = True
        user.is_deleted = False
        user.deleted_at = None
    user.save(update_fields=["is_active", "is_deleted", "deleted_at", "updated_at"])
    if before != status:
        record(user, machine=ACCOUNT_HISTORY, from_status=before, to_status=status, actor=actor, reason=reason)
    if status != "active":
        tokens_revoke_all(user=user)


@transaction.atomic
def user_status_set(*, actor: User, user: User, status: str) -> User:
    """Suspend, soft-delete or restore an account. A host's subHosts follow it: suspending or deleting a
    host does the same to its live subHosts; restoring it brings back those that went with it.
    """
    if status not in ACCOUNT_STATUSES:
        raise InvalidInput(
            "Status must be active, suspended or deleted.",
            errors={"status": ["Status must be active, suspended or deleted."]},
        )
    _check_may_manage(actor, user)
    user = User.objects.select_for_update().get(pk=user.pk)
    before = account_status(user)
    refusal = status_refusal(actor, user, status)
    if refusal is not None:
        raise refusal
    previous_deleted_at = user.deleted_at
    now = timezone.now()
    apply_status(user, status, now, actor=actor)
    if user.role == Role.HOST:
        sub_hosts = User.objects.select_for_update().filter(host=user)
        if status == "active":
            if before == "deleted":
                sub_hosts = sub_hosts.filter(is_deleted=True, deleted_at=previous_deleted_at)
            else:
                sub_hosts = sub_hosts.filter(is_deleted=False, is_active=False)
        else:
            sub_hosts = sub_hosts.filter(is_deleted=False)
            if status == "suspended":
                sub_hosts = sub_hosts.filter(is_active=True)
        for sub_host in sub_hosts:
            apply_status(sub_host, status, now, actor=actor, reason="With its host")
    return user


@transaction.atomic
def user_role_set(*, actor: User, user: User, role: str, host: User | None = None) -> User:
    """The admin gives an account another role (``role_change_refusal`` says when not). A subHost
    needs the host it acts for; any other role has none. The change is in the status history and
    signs the account out everywhere."""
    user = User.objects.select_for_update().get(pk=user.pk)
    refusal = role_change_refusal(actor, user, role, host)
    if refusal is not None:
        raise refusal
    if role != Role.SUB_HOST:
        host = None
    if user.role == role and user.host_id == (host.pk if host else None):
        return user
    before = user.role
    user.role, user.host = role, host
    user.save(update_fields=["role", "host", "updated_at"])
    if before != role:
        record(user, machine=ROLE_HISTORY, from_status=before, to_status=role, actor=actor)
    tokens_revoke_all(user=user)
    return user


@transaction.atomic
def sub_host_update(*, actor: User, sub_host: User, data: dict) -> User:
    _check_may_manage(actor, sub_host)
    changed = []
    for field in ("first_name", "last_name"):
        if field in data:
            setattr(sub_host, field, data[field])
            changed.append(field)
    if changed:
        sub_host.save(update_fields=[*changed, "updated_at"])
    if "is_active" in data and data["is_active"] != sub_host.is_active:
        sub_host = user_status_set(actor=actor, user=sub_host, status="active" if data["is_active"] else "suspended")
    return sub_host


def sub_host_get_for(*, actor: User, sub_host_id) -> User:
    sub_host = User.objects.filter(pk=sub_host_id, role=Role.SUB_HOST, host_id=actor.pk, is_deleted=False).first()
    if sub_host is None:
        raise NotFound("Sub-host not found.")
    return sub_host


def moderator_get(*, moderator_id) -> User:
    moderator = User.objects.filter(pk=moderator_id, role=Role.MODERATOR, is_deleted=False).first()
    if moderator is None:
        raise NotFound("Moderator not found.")
    return moderator
