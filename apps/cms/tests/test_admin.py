import pytest

from apps.cms.models import Page
from apps.cms.selectors import cms_page_get, contact_details_get, review_settings_get

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff_client(client, users):
    client.force_login(users["moderator"])
    cms_page_get("terms")
    contact_details_get()
    review_settings_get()
    return client


@pytest.mark.parametrize(
    "url",
    [
        "/django-admin/cms/page/",
        "/django-admin/cms/page/?q=terms&slug__exact=terms",
        "/django-admin/cms/contactdetails/",
        "/django-admin/cms/reviewsettings/?auto_publish__exact=1",
        "/django-admin/accounts/verificationrequest/?status__exact=pending&q=host",
        "/django-admin/accounts/verificationdocument/",
    ],
)
def test_staff_open_cms_and_verification_pages_in_the_admin(staff_client, url):
    assert staff_client.get(url).status_code == 200


def test_renter_cannot_open_the_admin(client, users):
    client.force_login(users["renter"])
    assert client.get("/django-admin/cms/page/").status_code == 302


def test_saving_a_page_in_the_admin_sanitizes_it(staff_client, users):
    page = Page.objects.get(slug="terms")
    response = staff_client.post(
        f"/django-admin/cms/page/{page.pk}/change/",
        {"title": "Terms", "content": '<p onclick="x()">Hi</p><script>alert(1)</script>'},
    )
    assert response.status_code == 302
    page.refresh_from_db()
    assert page.content == "<p>Hi</p>"
    assert page.updated_by == users["moderator"]


def test_admin_actions_change_status_through_the_services(client, users):
    client.force_login(users["admin"])
    response = client.post(
        "/django-admin/accounts/user/",
        {"action": "suspend", "_selected_action": [str(users["renter"].pk), str(users["admin"].pk)]},
    )
    assert response.status_code == 302
    users["renter"].refresh_from_db()
    users["admin"].refresh_from_db()
    assert not users["renter"].is_active
    assert users["admin"].is_active  # the service refuses to suspend oneself


def test_admin_approve_action_verifies_through_the_service(client, users):
    from apps.accounts.models import VerificationRequest

    request = VerificationRequest.objects.create(user=users["host"])
    client.force_login(users["moderator"])
    response = client.post(
        "/django-admin/accounts/verificationrequest/", {"action": "approve", "_selected_action": [str(request.pk)]}
    )
    assert response.status_code == 302
    request.refresh_from_db()
    users["host"].refresh_from_db()
    assert request.status == "approved" and request.decided_by == users["moderator"]
    assert users["host"].is_verified


def test_the_moderator_edits_the_contact_texts_but_not_the_recipient(staff_client, client, users):
    details = contact_details_get()
    recipient = details.recipient_email
    url = f"/django-admin/cms/contactdetails/{details.pk}/change/"
    response = staff_client.post(
        url, {"full_name": "Front desk", "location": "Lisbon", "recipient_email": "attacker@example.net"}
    )
    assert response.status_code == 302
    details.refresh_from_db()
    assert (details.full_name, details.location, details.recipient_email) == ("Front desk", "Lisbon", recipient)
    client.force_login(users["admin"])
    client.post(url, {"full_name": "Front desk", "location": "Lisbon", "recipient_email": "desk@example.org"})
    details.refresh_from_db()
    assert details.recipient_email == "desk@example.org"
