import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from apps.accounts.models import VerificationDocument, VerificationRequest
from apps.accounts.selectors import pending_verification_request_count
from apps.core.schema_check import check
from apps.core.testing import ACTORS, check_role_matrix
from apps.core.tests.pdfs import MINIMAL_PDF

pytestmark = pytest.mark.django_db

STAFF = ("admin", "moderator")
PDF = MINIMAL_PDF


def _png() -> bytes:
    import io

    from PIL import Image

    out = io.BytesIO()
    Image.new("RGB", (32, 32), (30, 90, 160)).save(out, format="PNG")
    return out.getvalue()


PNG = _png()


@pytest.fixture(autouse=True)
def private_root(settings, tmp_path):
    settings.PRIVATE_MEDIA_ROOT = tmp_path / "private"
    settings.MEDIA_ROOT = tmp_path / "uploads"
    return settings.PRIVATE_MEDIA_ROOT


def upload(client, *files):
    return client.post("/api/user/verification-docs", {"files": list(files)}, format="multipart")


def pdf(name="passport.pdf", content=PDF):
    return SimpleUploadedFile(name, content, content_type="application/pdf")


def test_upload_roles(clients):
    for actor in ACTORS:
        response = upload(clients[actor], pdf())
        expected = 201 if actor in ("host", "other_host") else (401 if actor == "anonymous" else 403)
        assert response.status_code == expected, actor
    check_role_matrix(clients, "get", "/api/user/verification-docs", allowed=("host", "other_host"))


def test_host_uploads_documents_and_a_request_appears(clients, users, private_root):
    response = upload(clients["host"], pdf(), SimpleUploadedFile("licence.png", PNG, content_type="image/png"))
    assert response.status_code == 201
    assert response.json()["message"] == "Documents uploaded. We will review them shortly."
    docs = response.json()["data"]
    assert [doc["name"] for doc in docs] == ["passport.pdf", "licence.png"]
    assert {"_id", "name", "fileName", "createdAt", "url"} <= set(docs[0])
    # Stored privately, under a random name, not under the public uploads path.
    stored = VerificationDocument.objects.get(name="passport.pdf")
    assert (private_root / stored.file.name).exists()
    assert "passport" not in stored.file.name
    assert VerificationRequest.objects.get(user=users["host"]).status == "pending"
    assert pending_verification_request_count() == 1
    assert pending_verification_request_count(users["host"]) == 0
    # A second upload does not open a second request.
    upload(clients["host"], pdf("more.pdf"))
    assert VerificationRequest.objects.filter(user=users["host"]).count() == 1
    # Staff were told.
    assert users["admin"].notifications.filter(kind="verificationRequested").exists()


def test_pending_counter_reaches_the_dashboard_counters(clients):
    from apps.notifications.counters import pending_counters

    upload(clients["host"], pdf())
    upload(clients["other_host"], pdf())
    assert pending_counters(_user("admin"))["pendingVerificationRequest"] == 2


def _user(email_prefix):
    from apps.accounts.models import User

    return User.objects.get(email=f"{email_prefix}@test.example")


@pytest.mark.parametrize(
    ("files", "message"),
    [
        ([], "Choose at least one document."),
        ([SimpleUploadedFile("x.pdf", b"", content_type="application/pdf")], "x.pdf is empty."),
        (
            [SimpleUploadedFile("x.pdf", b"<html><script>", content_type="application/pdf")],
            "x.pdf is not a PDF, JPEG, PNG or WebP file.",
        ),
        (
            [SimpleUploadedFile("evil.exe", b"MZ\x90\x00", content_type="image/png")],
            "evil.exe is not a PDF, JPEG, PNG or WebP file.",
        ),
        (
            [SimpleUploadedFile("big.pdf", b"%PDF-" + b"0" * (10 * 1024 * 1024), content_type="application/pdf")],
            "big.pdf is larger than 10 MB.",
        ),
    ],
)
def test_upload_bad_files(clients, files, message):
    response = (
        upload(clients["host"], *files)
        if files
        else clients["host"].post("/api/user/verification-docs", {}, format="multipart")
    )
    assert response.status_code == 400
    assert response.json()["message"] == message
    assert not VerificationDocument.objects.exists()
    assert not VerificationRequest.objects.exists()


def test_upload_file_name_is_cleaned(clients):
    response = upload(clients["host"], pdf(name="../../etc/pass\x00wd.pdf"))
    assert response.status_code == 201
    name = response.json()["data"][0]["name"]
    assert "/" not in name and "\x00" not in name and name.endswith(".pdf")


def test_upload_json_body_is_refused_clearly(clients):
    response = clients["host"].post("/api/user/verification-docs", {"files": "abc"}, format="json")
    assert response.status_code == 400


def test_at_most_ten_documents(clients):
    for index in range(10):
        assert upload(clients["host"], pdf(f"{index}.pdf")).status_code == 201
    response = upload(clients["host"], pdf("eleven.pdf"))
    assert response.status_code == 400
    assert response.json()["message"] == "You can keep at most 10 documents. Delete some first."


def test_documents_are_served_only_to_owner_and_staff(clients, users):
    doc = upload(clients["host"], pdf()).json()["data"][0]
    url = f"/api/user/verification-docs/{doc['_id']}/file"
    assert doc["url"] == url
    statuses = check_role_matrix(clients, "get", url, allowed=("host", *STAFF), hidden_status=(404,))
    assert statuses["sub_host"] == 404
    response = clients["admin"].get(url)
    assert response.status_code == 200
    assert b"".join(response.streaming_content) == PDF
    assert response["Content-Type"] == "application/pdf"
    assert response["Cache-Control"] == "private, no-store"
    assert "sandbox" in response["Content-Security-Policy"]
    stored = VerificationDocument.objects.get(pk=doc["_id"]).file.name
    assert clients["host"].get(f"/uploads/{stored}").status_code == 404


def test_document_file_may_be_framed_by_our_pages_only(clients, users):
    upload(clients["host"], pdf())
    document = VerificationDocument.objects.get(user=users["host"])
    response = clients["moderator"].get(f"/api/user/verification-docs/{document.pk}/file")
    assert response.status_code == 200
    assert response["X-Frame-Options"] == "SAMEORIGIN"
    assert "sandbox" in response["Content-Security-Policy"]
    assert "inline" in response["Content-Disposition"]


def test_staff_see_documents_on_view_user(clients, users):
    upload(clients["host"], pdf())
    data = clients["moderator"].get(f"/api/user/view-user/{users['host'].pk}").json()["data"]
    assert [doc["name"] for doc in data["verificationDocs"]] == ["passport.pdf"]
    assert data["verificationStatus"] == "pending"
    public = clients["renter"].get(f"/api/user/view-user/{users['host'].pk}").json()["data"]
    assert "verificationDocs" not in public


# --- media/delete --------------------------------------------------------------------------


def test_media_delete_owner_or_staff(clients, users, private_root):
    docs = upload(clients["host"], pdf("a.pdf"), pdf("b.pdf")).json()["data"]
    body = {"fileName": docs[0]["fileName"], "type": "verificationDoc", "userId": str(users["host"].pk)}
    for actor in ("renter", "other_host", "sub_host"):
        assert clients[actor].post("/api/media/delete", body, format="json").status_code == 404
    assert clients["anonymous"].post("/api/media/delete", body, format="json").status_code == 401
    response = clients["host"].post("/api/media/delete", body, format="json")
    assert response.status_code == 200
    assert response.json()["message"] == "Document deleted successfully."
    assert not (private_root / "verification" / str(users["host"].pk) / docs[0]["fileName"]).exists()
    assert clients["host"].post("/api/media/delete", body, format="json").status_code == 404
    # Staff may delete too; the last document withdraws the pending request.
    body["fileName"] = docs[1]["fileName"]
    assert clients["moderator"].post("/api/media/delete", body, format="json").status_code == 200
    assert not VerificationRequest.objects.filter(user=users["host"], status="pending").exists()


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"type": "verificationDoc", "userId": "7b7e0d5e-0000-4000-8000-000000000000"}, "fileName is required"),
        ({"fileName": "a.pdf", "userId": "7b7e0d5e-0000-4000-8000-000000000000"}, "type is required"),
        (
            {"fileName": "a.pdf", "type": "avatar", "userId": "7b7e0d5e-0000-4000-8000-000000000000"},
            "type must be verificationDoc.",
        ),
        ({"fileName": "a.pdf", "type": "verificationDoc", "userId": "nope"}, "userId is not valid"),
        ({"fileName": "a.pdf", "type": "verificationDoc"}, "userId is required"),
    ],
)
def test_media_delete_bad_input(clients, body, message):
    response = clients["host"].post("/api/media/delete", body, format="json")
    assert response.status_code == 400
    assert response.json()["message"] == message


@pytest.mark.parametrize("file_name", ["../../../etc/passwd", "%", "x" * 255, "' OR 1=1 --"])
def test_media_delete_odd_names_find_nothing(clients, users, file_name):
    upload(clients["host"], pdf())
    body = {"fileName": file_name, "type": "verificationDoc", "userId": str(users["host"].pk)}
    assert clients["admin"].post("/api/media/delete", body, format="json").status_code == 404
    assert VerificationDocument.objects.count() == 1


# --- Decisions ------------------------------------------------------------------------------


def _pending(clients, users):
    upload(clients["host"], pdf())
    return VerificationRequest.objects.get(user=users["host"], status="pending")


def test_request_list_and_detail_are_staff_only(clients, users):
    request = _pending(clients, users)
    check_role_matrix(clients, "get", "/api/user/verification-requests", allowed=STAFF)
    check_role_matrix(clients, "get", f"/api/user/verification-requests/{request.pk}", allowed=STAFF)
    data = clients["moderator"].get("/api/user/verification-requests", {"filters[status]": "pending"}).json()["data"]
    assert data["totalCount"] == 1 and data["pendingVerificationRequest"] == 1
    item = data["verificationRequests"][0]
    assert item["status"] == "pending" and item["user"]["email"] == "host@test.example"
    assert [doc["name"] for doc in item["verificationDocs"]] == ["passport.pdf"]
    assert item["can"] == {"approve": True, "reject": True}
    assert clients["admin"].get("/api/user/verification-requests", {"filters[status]": "odd"}).status_code == 400


def test_decision_roles(clients, users):
    request = _pending(clients, users)
    url = f"/api/user/verification-requests/update-status/{request.pk}"
    check_role_matrix(clients, "patch", url, allowed=STAFF, data={"status": "approved"}, hidden_status=(403,))


def test_approve_verifies_the_host_and_keeps_who_and_when(clients, users):
    request = _pending(clients, users)
    url = f"/api/user/verification-requests/update-status/{request.pk}"
    response = clients["moderator"].patch(url, {"status": "approved"}, format="json")
    assert response.status_code == 200
    assert response.json()["message"] == "Host verified successfully."
    data = response.json()["data"]
    assert data["status"] == "approved" and data["decidedBy"]["email"] == "moderator@test.example"
    assert data["decidedAt"]
    assert data["can"] == {"approve": False, "reject": False}
    listed = clients["admin"].get("/api/user/verification-requests").json()["data"]["verificationRequests"][0]
    assert listed["can"] == {"approve": False, "reject": False}
    users["host"].refresh_from_db()
    assert users["host"].is_verified
    assert users["host"].notifications.filter(kind="verificationApproved", link="/profile").exists()
    assert pending_verification_request_count() == 0
    again = clients["admin"].patch(url, {"status": "rejected", "reason": "late"}, format="json")
    assert again.status_code == 409
    assert again.json()["message"] == "This request was already decided."
    # A verified host uploading more documents opens no new request.
    upload(clients["host"], pdf("extra.pdf"))
    assert pending_verification_request_count() == 0


def test_reject_needs_a_reason_and_allows_a_new_request(clients, users):
    request = _pending(clients, users)
    url = f"/api/user/verification-requests/update-status/{request.pk}"
    for body in ({"status": "rejected"}, {"status": "rejected", "reason": "   "}):
        response = clients["admin"].patch(url, body, format="json")
        assert response.status_code == 400
        assert response.json()["message"] == "Reason is required"
    response = clients["admin"].patch(url, {"status": "rejected", "reason": "The photo is blurred."}, format="json")
    assert response.status_code == 200
    assert response.json()["data"]["rejectReason"] == "The photo is blurred."
    users["host"].refresh_from_db()
    assert not users["host"].is_verified
    notice = users["host"].notifications.get(kind="verificationRejected")
    assert "The photo is blurred." in notice.content
    upload(clients["host"], pdf("sharper.pdf"))
    assert VerificationRequest.objects.filter(user=users["host"]).count() == 2
    assert pending_verification_request_count() == 1


def test_the_request_detail_tells_staff_who_decided_when_and_why(clients, users):
    request = _pending(clients, users)
    clients["moderator"].patch(
        f"/api/user/verification-requests/update-status/{request.pk}",
        {"status": "rejected", "reason": "The photo is blurred."},
        format="json",
    )
    response = clients["admin"].get(f"/api/user/verification-requests/{request.pk}")
    assert response.status_code == 200, response.content
    check("VerificationRequestDetailResponse", response.json())
    last = response.json()["data"]["statusHistory"][-1]
    assert (last["fromStatus"], last["toStatus"], last["reason"]) == ("pending", "rejected", "The photo is blurred.")
    assert last["actor"]["role"] == "moderator"


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({}, "Status is required"),
        ({"status": "maybe"}, "Status must be approved or rejected."),
        ({"status": "rejected", "reason": "r" * 501}, "Reason must be at most 500 characters long"),
        ({"status": "rejected", "reason": ["x"]}, "Reason must be text"),
    ],
)
def test_decision_bad_input(clients, users, body, message):
    request = _pending(clients, users)
    response = clients["admin"].patch(
        f"/api/user/verification-requests/update-status/{request.pk}", body, format="json"
    )
    assert response.status_code == 400
    assert response.json()["message"] == message


def test_decision_on_unknown_request(clients):
    url = "/api/user/verification-requests/update-status/7b7e0d5e-0000-4000-8000-000000000000"
    response = clients["admin"].patch(url, {"status": "approved"}, format="json")
    assert response.status_code == 404
    assert response.json()["message"] == "Verification request not found."
