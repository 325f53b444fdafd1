"""Identity verification: a host uploads documents, a pending request appears for staff, who approve
(the host becomes verified) or reject it with a reason. Every decision keeps who and when.
"""

import os
import re
import uuid

from django.core.files.base import ContentFile
from django.core.files.uploadedfile import UploadedFile
from django.db import transaction
from django.utils import timezone

from apps.core.access import Area, reaches
from apps.core.exceptions import Conflict, Forbidden, InvalidInput, NotFound
from apps.core.images import reencode_image
from apps.core.pdf import check_pdf
from apps.core.statemachine import StateMachine, record
from apps.notifications.services import counters_changed

from .models import (
    STAFF_ROLES,
    User,
    VerificationDocument,
    VerificationRequest,
    VerificationStatus,
)
from .policies import verifies_identity
from .services_users import user_notify

DOCUMENT_MAX_BYTES = 10 * 1024 * 1024
DOCUMENTS_PER_USER = 10
REJECT_REASON_MAX = 500

# Detected from the file's first bytes, never from its name or the browser's content type.
_SIGNATURES = (
    (b"%PDF-", "application/pdf", "pdf"),
    (b"\xff\xd8\xff", "image/jpeg", "jpg"),
    (b"\x89PNG\r\n\x1a\n", "image/png", "png"),
)


def _sniff(head: bytes) -> tuple[str, str] | None:
    for signature, content_type, extension in _SIGNATURES:
        if head.startswith(signature):
            return content_type, extension
    if head[:4] == b"RIFF" and head[8:12] == b"WEBP":
        return "image/webp", "webp"
    return None


def _display_name(name: str) -> str:
    name = os.path.basename(str(name or "").replace("\\", "/"))
    name = re.sub(r"[\x00-\x1f\x7f]", "", name).strip()
    return name[-120:] or "document"


def _check_document(upload: UploadedFile) -> tuple[str, str]:
    name = _display_name(upload.name)
    if upload.size > DOCUMENT_MAX_BYTES:
        raise InvalidInput(f"{name} is larger than 10 MB.", errors={"files": [f"{name} is larger than 10 MB."]})
    if upload.size == 0:
        raise InvalidInput(f"{name} is empty.", errors={"files": [f"{name} is empty."]})
    upload.seek(0)
    kind = _sniff(upload.read(16))
    upload.seek(0)
    if kind is None:
        message = f"{name} is not a PDF, JPEG, PNG or WebP file."
        raise InvalidInput(message, errors={"files": [message]})
    return kind


DOCUMENT_MAX_SIDE = 2400  # enough to read a passport scan; the stored copy is re-encoded at most this size


def _clean_document(upload: UploadedFile) -> tuple[ContentFile, str, str]:
    """What is stored: a PDF without active content, or an image re-encoded without its metadata."""
    content_type, extension = _check_document(upload)
    name = _display_name(upload.name)
    if content_type == "application/pdf":
        return ContentFile(check_pdf(upload, field="files", shown=name)), content_type, extension
    try:
        image = reencode_image(upload, max_side=DOCUMENT_MAX_SIDE, field="files")
    except InvalidInput as exc:
        message = exc.message.replace(str(upload.name), name, 1)
        raise InvalidInput(message, errors={"files": [message]}) from None
    extension = image.name.rsplit(".", 1)[-1]
    return image, ("image/png" if extension == "png" else "image/jpeg"), extension


@transaction.atomic
def verification_documents_add(*, user: User, files: list[UploadedFile]) -> list[VerificationDocument]:
    """Store the host's documents privately and open a verification request (if none is pending)."""
    if not verifies_identity(user):
        raise Forbidden("Only hosts upload identity documents.")
    if not files:
        raise InvalidInput("Choose at least one document.", errors={"files": ["Choose at least one document."]})
    User.objects.select_for_update().filter(pk=user.pk).first()  # one upload at a time per user
    existing = VerificationDocument.objects.filter(user=user).count()
    if existing + len(files) > DOCUMENTS_PER_USER:
        message = f"You can keep at most {DOCUMENTS_PER_USER} documents. Delete some first."
        raise InvalidInput(message, errors={"files": [message]})
    checked = [(upload, _clean_document(upload)) for upload in files]
    documents = []
    for upload, (content, content_type, extension) in checked:
        document = VerificationDocument(
            user=user, name=_display_name(upload.name), content_type=content_type, size=content.size
        )
        document.file.save(f"{uuid.uuid4().hex}.{extension}", content, save=False)
        document.save()
        documents.append(document)
    if not user.is_verified and not user.verification_requests.filter(status=VerificationStatus.PENDING).exists():
        verification = VerificationRequest.objects.create(user=user)
        record(verification, machine=VERIFICATION_MACHINE.name, from_status="", to_status="pending", actor=user)
        _tell_staff_about_request(user)
    return documents


VERIFICATION_MACHINE = StateMachine(
    "verification",
    {VerificationStatus.PENDING: {VerificationStatus.APPROVED, VerificationStatus.REJECTED}},
    label="verification request",
)


def _tell_staff_about_request(host: User) -> None:
    name = host.display_name
    for staff in User.objects.filter(role__in=STAFF_ROLES, is_deleted=False, is_active=True):
        user_notify(staff, "verificationRequested", f"{name} asked to verify their identity.", "/verificationRequest")
    counters_changed(staff=True)


@transaction.atomic
def verification_document_delete(*, actor: User, owner_id, file_name: str) -> None:
    """Delete one document (owner or staff). A pending request left without documents is withdrawn."""
    document = (
        VerificationDocument.objects.select_for_update()
        .filter(user_id=owner_id, file__endswith=f"/{file_name}")
        .first()
        if file_name and "/" not in file_name
        else None
    )
    if document is None or (document.user_id != actor.pk and actor.role not in STAFF_ROLES):
        raise NotFound("Document not found.")
    stored = document.file.name
    storage = document.file.storage
    document.delete()
    transaction.on_commit(lambda: storage.delete(stored))
    if not VerificationDocument.objects.filter(user_id=owner_id).exists():
        withdrawn, _ = VerificationRequest.objects.filter(user_id=owner_id, status=VerificationStatus.PENDING).delete()
        if withdrawn:
            counters_changed(staff=True)


def verification_request_may_decide(actor: User | None, request: VerificationRequest) -> bool:
    """Staff decide a request once, while it is pending and the host's account is not deleted."""
    return (
        actor is not None
        and getattr(actor, "role", None) in STAFF_ROLES
        and request.status == VerificationStatus.PENDING
        and not request.user.is_deleted
    )


@transaction.atomic
def verification_request_decide(
    *, actor: User, request: VerificationRequest, status: str, reason: str = ""
) -> VerificationRequest:
    """Approve (the host becomes verified) or reject (a reason is required) a pending request."""
    if not reaches(actor, Area.VERIFICATION_REQUESTS):
        raise Forbidden("Only the admin or a moderator can decide verification requests.")
    if status not in (VerificationStatus.APPROVED, VerificationStatus.REJECTED):
        raise InvalidInput(
            "Status must be approved or rejected.", errors={"status": ["Status must be approved or rejected."]}
        )
    reason = (reason or "").strip()
    if status == VerificationStatus.REJECTED and not reason:
        raise InvalidInput("Reason is required", errors={"reason": ["Reason is required"]})
    VERIFICATION_MACHINE.transition(
        request,
        status,
        actor=actor,
        reason=reason,
        message="This request was already decided.",
        decided_at=timezone.now(),
        decided_by=actor,
        reject_reason=reason if status == VerificationStatus.REJECTED else "",
    )
    request.refresh_from_db()
    host = User.objects.select_for_update().get(pk=request.user_id)
    if host.is_deleted:
        raise Conflict("Host is deleted")
    if status == VerificationStatus.APPROVED:
        host.is_verified = True
        host.save(update_fields=["is_verified", "updated_at"])
        user_notify(
            host, "verificationApproved", "Your identity is verified. Your profile now shows the badge.", "/profile"
        )
    else:
        user_notify(host, "verificationRejected", f"Your identity verification was rejected: {reason}", "/profile")
    counters_changed(staff=True)
    return request
