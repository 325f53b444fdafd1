import pytest
from django.core import mail

from apps.cms.models import Page
from apps.cms.sanitize import sanitize_html
from apps.cms.selectors import cms_page_get, review_settings_get
from apps.core.testing import ACTORS, check_role_matrix
from apps.premium.policies import PREMIUM_GRACE_DAYS

pytestmark = pytest.mark.django_db

STAFF = ("admin", "moderator")
GOOD_MAIL = {"name": "Jane Doe", "phoneNumber": "2261234567", "email": "jane@example.com", "message": "Hello there"}


# --- Pages ----------------------------------------------------------------------


@pytest.mark.parametrize("name", ["term", "privacy", "about", "faq"])
def test_page_getters_are_public_and_return_default_html(clients, name):
    check_role_matrix(clients, "get", f"/api/cms/{name}/get", allowed=ACTORS)
    body = clients["anonymous"].get(f"/api/cms/{name}/get").json()
    assert body["data"]["content"].strip().startswith("<h")
    assert set(body["data"]) == {"_id", "slug", "title", "content", "updatedAt"}


def test_default_terms_name_the_premium_grace_days_of_the_rule(api):
    content = api.get("/api/cms/term/get").json()["data"]["content"]
    assert f"deleted {PREMIUM_GRACE_DAYS} days after the membership is cancelled" in content


def test_terms_getter_ignores_a_stale_token(api):
    api.credentials(HTTP_AUTHORIZATION="Bearer not-a-token")
    assert api.get("/api/cms/term/get").status_code == 200


@pytest.mark.parametrize("name", ["term", "privacy", "about", "faq"])
def test_only_staff_update_pages(clients, name):
    check_role_matrix(clients, "put", f"/api/cms/{name}/update", allowed=STAFF, data={"content": "<p>New text</p>"})


def test_moderator_updates_terms_and_everyone_sees_it(clients):
    response = clients["moderator"].put(
        "/api/cms/term/update", {"content": "<h2>Rules</h2><p>Be <strong>kind</strong>.</p>"}, format="json"
    )
    assert response.status_code == 200
    assert response.json()["message"] == "Terms and Conditions updated successfully."
    data = clients["anonymous"].get("/api/cms/term/get").json()["data"]
    assert data["content"] == "<h2>Rules</h2><p>Be <strong>kind</strong>.</p>"
    assert Page.objects.get(slug="terms").updated_by.email == "moderator@test.example"


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({}, "Content is required"),
        ({"content": ""}, "Content is required"),
        ({"content": None}, "Content is required"),
        ({"content": "x" * 200_001}, "Content must be at most 200000 characters long"),
        ({"content": ["<p>a</p>"]}, "Content must be HTML text"),
        ({"content": "<p>a</p>", "title": "t" * 121}, "Title must be at most 120 characters long"),
    ],
)
def test_page_update_bad_input(clients, body, message):
    response = clients["admin"].put("/api/cms/term/update", body, format="json")
    assert response.status_code == 400
    assert response.json()["message"] == message


def test_page_update_malformed_json(clients):
    response = clients["admin"].put("/api/cms/term/update", "{not json", content_type="application/json")
    assert response.status_code == 400


XSS_PAYLOADS = [
    "<script>alert(1)</script>",
    "<SCRIPT SRC=//evil.example/xss.js></SCRIPT>",
    '<img src=x onerror="alert(1)">',
    "<img src=javascript:alert(1)>",
    '<a href="javascript:alert(1)">click</a>',
    '<a href="JaVaScRiPt:alert(1)">click</a>',
    '<a href="&#106;avascript:alert(1)">click</a>',
    '<a href="java\tscript:alert(1)">click</a>',
    '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">x</a>',
    '<a href="vbscript:msgbox(1)">x</a>',
    '<svg onload="alert(1)"><circle r="1"/></svg>',
    '<body onload="alert(1)">',
    '<iframe src="https://evil.example"></iframe>',
    '<object data="evil.swf"></object>',
    '<embed src="evil.swf">',
    '<div style="background:url(javascript:alert(1))">x</div>',
    '<p onclick="alert(1)" onmouseover="alert(2)">x</p>',
    '<form action="https://evil.example"><input name="q"><button>go</button></form>',
    '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">',
    '<link rel="stylesheet" href="https://evil.example/x.css">',
    "<style>body{display:none}</style>",
    '<math><mtext><table><mglyph><style><img src=x onerror="alert(1)"></style></mglyph></table></mtext></math>',
    '<noscript><p title="</noscript><img src=x onerror=alert(1)>">',
    "<<script>script>alert(1)<</script>/script>",
    '<img """><script>alert(1)</script>">',
    '<details open ontoggle="alert(1)">',
    '<base href="javascript:alert(1)//">',
    "<!--<script>alert(1)</script>-->",
    '<table background="javascript:alert(1)"><tr><td>x</td></tr></table>',
    '<video><source onerror="alert(1)"></video>',
]


def _is_safe(html: str) -> bool:
    lowered = html.lower()
    return (
        "<script" not in lowered
        and "javascript:" not in lowered
        and "vbscript:" not in lowered
        and "data:" not in lowered
        and " on" not in lowered.replace(" only", "")
        and "<iframe" not in lowered
        and "<object" not in lowered
        and "<embed" not in lowered
        and "<style" not in lowered
        and "<form" not in lowered
        and "<svg" not in lowered
        and "<meta" not in lowered
        and "<base" not in lowered
        and "style=" not in lowered
    )


@pytest.mark.parametrize("payload", XSS_PAYLOADS)
def test_sanitizer_removes_xss(payload):
    assert _is_safe(sanitize_html(payload)), sanitize_html(payload)


@pytest.mark.parametrize("payload", XSS_PAYLOADS)
def test_xss_is_removed_on_save_and_output(clients, payload):
    clients["admin"].put("/api/cms/privacy/update", {"content": f"<p>ok</p>{payload}"}, format="json")
    assert _is_safe(Page.objects.get(slug="privacy").content)
    assert _is_safe(clients["anonymous"].get("/api/cms/privacy/get").json()["data"]["content"])


def test_unsafe_html_stored_behind_the_services_back_is_cleaned_on_output(clients):
    cms_page_get("terms")
    Page.objects.filter(slug="terms").update(content='<p>x</p><script>alert(1)</script><a href="javascript:x">y</a>')
    content = clients["renter"].get("/api/cms/term/get").json()["data"]["content"]
    assert _is_safe(content)
    assert cms_page_get("terms").content == content


def test_sanitizer_keeps_rich_text():
    html = (
        "<h1>T</h1><h2>S</h2><h3>s</h3><p>A <strong>b</strong> <em>c</em> <u>u</u> <s>s</s></p>"
        '<ul><li>one</li></ul><ol start="2"><li>two</li></ol><blockquote>q</blockquote>'
        "<table><thead><tr><th>H</th></tr></thead><tbody><tr><td>D</td></tr></tbody></table>"
    )
    assert sanitize_html(html) == html
    link = sanitize_html('<a href="https://example.com/x" target="_blank">x</a>')
    assert 'href="https://example.com/x"' in link and 'rel="noopener noreferrer nofollow"' in link
    assert 'href="mailto:a@example.com"' in sanitize_html('<a href="mailto:a@example.com">m</a>')


# --- Contact details ----------------------------------------------------------------


def test_contact_get_is_public_with_the_spec_field_names(clients):
    check_role_matrix(clients, "get", "/api/cms/contact/get", allowed=ACTORS)
    data = clients["anonymous"].get("/api/cms/contact/get").json()["data"]
    assert set(data) == {"fullName", "location", "recepientEmail", "updatedAt"}


def test_only_staff_update_contact(clients):
    current = clients["anonymous"].get("/api/cms/contact/get").json()["data"]["recepientEmail"]
    body = {"fullName": "Help Desk", "location": "Toronto", "recepientEmail": current.upper()}
    check_role_matrix(clients, "put", "/api/cms/contact/update", allowed=STAFF, data=body)
    data = clients["anonymous"].get("/api/cms/contact/get").json()["data"]
    assert data["fullName"] == "Help Desk" and data["recepientEmail"] == current


def test_only_the_admin_changes_where_contact_mails_go(clients):
    url = "/api/cms/contact/update"
    current = clients["anonymous"].get("/api/cms/contact/get").json()["data"]
    moved = {"fullName": "Desk", "location": "Lisbon", "recepientEmail": "attacker@example.net"}
    refused = clients["moderator"].put(url, moved, format="json")
    assert refused.status_code == 403
    assert refused.json()["errors"]["recepientEmail"] == [
        "Only the admin can change the address contact messages are sent to."
    ]
    assert clients["anonymous"].get("/api/cms/contact/get").json()["data"] == current  # nothing changed
    assert clients["admin"].put(url, moved, format="json").status_code == 200
    assert clients["anonymous"].get("/api/cms/contact/get").json()["data"]["recepientEmail"] == "attacker@example.net"


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"location": "x", "recepientEmail": "a@example.com"}, "Full name is required"),
        ({"fullName": "x", "recepientEmail": "a@example.com"}, "Location is required"),
        ({"fullName": "x", "location": "x"}, "Recipient email is required"),
        ({"fullName": "x", "location": "x", "recepientEmail": "nope"}, "Invalid email address"),
        (
            {"fullName": "x" * 101, "location": "x", "recepientEmail": "a@example.com"},
            "Full name must be at most 100 characters long",
        ),
    ],
)
def test_contact_update_bad_input(clients, body, message):
    response = clients["admin"].put("/api/cms/contact/update", body, format="json")
    assert response.status_code == 400
    assert response.json()["message"] == message


# --- Contact form -----------------------------------------------------------------------


def test_contact_mail_is_sent_to_the_recipient(clients):
    clients["admin"].put(
        "/api/cms/contact/update",
        {"fullName": "Desk", "location": "Toronto", "recepientEmail": "desk@example.com"},
        format="json",
    )
    mail.outbox.clear()
    body = {**GOOD_MAIL, "message": "I need a room for 20 <b>people</b> & a projector"}
    response = clients["anonymous"].post("/api/cms/contact/send-mail", body, format="json")
    assert response.status_code == 200
    assert response.json()["message"] == "Mail sent."
    assert len(mail.outbox) == 1
    sent = mail.outbox[0]
    assert sent.to == ["desk@example.com"]
    assert "Jane Doe" in sent.subject
    assert "jane@example.com" in sent.body and "2261234567" in sent.body
    assert "20 <b>people</b> & a projector" in sent.body  # plain text part unescaped
    assert "&lt;b&gt;people&lt;/b&gt;" in sent.alternatives[0][0]  # HTML part escaped


def test_contact_mail_open_to_every_actor(clients):
    check_role_matrix(clients, "post", "/api/cms/contact/send-mail", allowed=ACTORS, data=GOOD_MAIL)


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("name", None, "Name is required"),
        ("name", "", "Name is required"),
        ("name", "   ", "Name is required"),
        ("name", "Jane2", "No digits allowed."),
        ("name", "2Jane", "No digits allowed."),
        ("name", " Jane", None),
        ("name", "Jane_Doe", "No digits allowed."),
        ("name", "<script>", "No digits allowed."),
        ("name", "a" * 26, "Name must be at most 25 characters long"),
        ("name", "a" * 25, None),
        ("name", "José Ñúñez", None),
        ("phoneNumber", "", "Phone number is required"),
        ("phoneNumber", None, "Phone number is required"),
        ("phoneNumber", "12345678901", "Phone must be at most 10 characters long"),
        ("phoneNumber", "12345abc", "Phone number must contain digits only."),
        ("phoneNumber", "١٢٣٤", "Phone number must contain digits only."),
        ("email", "", "Email is required"),
        ("email", None, "Email is required"),
        ("email", "not-an-email", "Invalid email address"),
        ("email", "a@b", "Invalid email address"),
        ("email", "x" * 250 + "@example.com", "Invalid email address"),
        ("message", "", "Message is required"),
        ("message", None, "Message is required"),
        ("message", "m" * 5001, "Message must be at most 5000 characters long"),
        ("message", "'; DROP TABLE cms_page; --", None),
        ("message", {"a": 1}, "Message must be text"),
    ],
)
def test_contact_mail_rules(api, field, value, message):
    body = {**GOOD_MAIL}
    if value is None:
        body.pop(field)
    else:
        body[field] = value
    response = api.post("/api/cms/contact/send-mail", body, format="json")
    if message is None:
        assert response.status_code == 200, response.json()
    else:
        assert response.status_code == 400
        assert response.json()["errors"][field][0] == message


def test_contact_mail_reports_every_missing_field(api):
    response = api.post("/api/cms/contact/send-mail", {}, format="json")
    assert response.status_code == 400
    errors = response.json()["errors"]
    assert errors == {
        "name": ["Name is required"],
        "phoneNumber": ["Phone number is required"],
        "email": ["Email is required"],
        "message": ["Message is required"],
    }
    assert not mail.outbox


def test_contact_mail_malformed_body(api):
    response = api.post("/api/cms/contact/send-mail", "{oops", content_type="application/json")
    assert response.status_code == 400
    assert response.json()["message"].startswith("The request body could not be read")


def test_contact_mail_is_rate_limited(api):
    for _ in range(5):
        assert api.post("/api/cms/contact/send-mail", GOOD_MAIL, format="json").status_code == 200
    response = api.post("/api/cms/contact/send-mail", GOOD_MAIL, format="json")
    assert response.status_code == 429
    assert response.json()["message"].startswith("Too many requests")
    assert len(mail.outbox) == 5


# --- Review settings -----------------------------------------------------------------------


def test_review_settings_staff_only(clients):
    check_role_matrix(clients, "get", "/api/cms/review-setting/get", allowed=STAFF)
    check_role_matrix(clients, "put", "/api/cms/review-setting/update", allowed=STAFF, data={"autoPublish": False})
    assert review_settings_get().auto_publish is False


def test_review_settings_default_and_update(clients):
    assert clients["admin"].get("/api/cms/review-setting/get").json()["data"]["autoPublish"] is True
    response = clients["moderator"].put("/api/cms/review-setting/update", {"autoPublish": False}, format="json")
    assert response.status_code == 200
    assert response.json()["data"]["autoPublish"] is False
    assert review_settings_get().auto_publish is False


@pytest.mark.parametrize("value", [None, "yes", 1, "true", [], "x" * 1000])
def test_review_settings_bad_input(clients, value):
    body = {} if value is None else {"autoPublish": value}
    response = clients["admin"].put("/api/cms/review-setting/update", body, format="json")
    assert response.status_code == 400
    assert "autoPublish" in response.json()["message"]
