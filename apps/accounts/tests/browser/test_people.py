"""The people screens walked as users would (issue "Done when"): a renter edits the profile, avatar and
password; a host invites a sub-host who sets a password from the mail and sees the host's bookings;
the admin adds a moderator who approves a host's identity after opening its document; the admin edits
the terms and the public page shows the new text, sanitised."""

import io
import re
from urllib.parse import urlparse

import pytest
from django.core import mail
from PIL import Image
from playwright.sync_api import expect

from apps.accounts.models import User, VerificationRequest
from apps.accounts.seed import DEMO_PASSWORD
from apps.accounts.seed import seed as seed_accounts
from apps.bookings.factories import PricedEventListingFactory, booking_make
from apps.core.tests.browser.fixtures import axe_violations
from apps.dashboard.tests.browser.test_shell import DEMO, sign_in

pytestmark = pytest.mark.django_db(transaction=True)

NEW_PASSWORD = "N3w!Secret"


@pytest.fixture
def people(settings, live_server, tmp_path):
    settings.SITE_URL = live_server.url
    settings.PRIVATE_MEDIA_ROOT = tmp_path / "private"
    settings.MEDIA_ROOT = tmp_path / "uploads"
    seed_accounts(io.StringIO())
    return {role: User.objects.get(email=email) for role, email in DEMO.items()}


def png(path, color=(200, 40, 40), size=(300, 200)):
    Image.new("RGB", size, color).save(path, "PNG")
    return str(path)


def toast(page):
    return page.locator(".toast, [role=status]").filter(has_text=re.compile(r"\w"))


def log_out(page):
    page.goto("about:blank")
    page.context.clear_cookies()


def log_in_with_form(page, email: str, password: str) -> None:
    page.goto("/?auth=login")
    dialog = page.locator("dialog.auth-modal")
    expect(dialog.get_by_role("heading", name="Welcome back Please log in")).to_be_visible()
    dialog.get_by_label("Email").fill(email)
    dialog.get_by_role("textbox", name="Password", exact=True).fill(password)
    dialog.get_by_role("button", name="Login").click()
    page.wait_for_url(re.compile(r"/dashboard"))


def invitation_path(email: str) -> str:
    message = [m for m in mail.outbox if email in m.to][-1]
    url = re.search(r"https?://\S+/set-password\?\S+", message.body).group(0)
    parsed = urlparse(url)
    return f"{parsed.path}?{parsed.query}"


def set_password_from_mail(page, email: str) -> None:
    log_out(page)
    page.goto(invitation_path(email))
    page.get_by_label("Password", exact=True).fill(NEW_PASSWORD)
    page.get_by_label("Confirm Password").fill(NEW_PASSWORD)
    page.get_by_role("button", name="Set password").click()
    expect(page.locator("main")).to_contain_text(re.compile("password", re.I))
    assert User.objects.get(email=email).check_password(NEW_PASSWORD)


def test_renter_edits_profile_and_avatar_then_changes_password(page, people, tmp_path):
    sign_in(page, DEMO["renter"])
    page.goto("/profile/edit")
    expect(page.get_by_role("heading", name="Edit Profile")).to_be_visible()
    # The server refuses a user name that is taken: the message is under the field, the typing stays.
    page.get_by_label("First name").fill("Rita")
    page.get_by_label("User name").fill("hannah")
    page.get_by_role("button", name="Save changes").click()
    expect(page.locator(".form-field__error", has_text="This user name is taken.")).to_be_visible()
    expect(page.get_by_label("First name")).to_have_value("Rita")
    assert User.objects.get(email=DEMO["renter"]).first_name == "Riley"
    page.get_by_label("User name").fill("rita")
    page.get_by_label("Phone").fill("2261234567")
    expect(page.get_by_label("Phone")).to_have_value("(226) 123-4567")
    page.get_by_role("button", name="Save changes").click()
    expect(page.locator(".dash-profile-name")).to_have_text("Rita Renter")
    expect(page.locator(".dash-user-name")).to_have_text("Rita R..")
    renter = User.objects.get(email=DEMO["renter"])
    assert (renter.first_name, renter.user_name, renter.emergency_phone) == ("Rita", "rita", "2261234567")

    page.locator("#avatar-file").set_input_files(png(tmp_path / "me.png"))
    crop = page.get_by_role("dialog", name="Crop your photo")
    expect(crop).to_be_visible()
    crop.get_by_label("Zoom").fill("2")
    crop.get_by_role("button", name="Use photo").click()
    expect(page.locator(".dash-topbar .dash-avatar img")).to_be_visible()
    renter.refresh_from_db()
    assert renter.avatar

    page.goto("/profile")
    expect(page.get_by_role("heading", name="Rita Renter")).to_be_visible()
    expect(page.get_by_text("(226) 123-4567")).to_be_visible()
    assert axe_violations(page, include=["main"]) == []

    page.goto("/general")
    page.get_by_label("Current password").fill("Wrong1234!")
    page.get_by_label("New password").fill(NEW_PASSWORD)
    page.get_by_label("Confirm Password").fill(NEW_PASSWORD)
    page.get_by_role("button", name="Update password").click()
    expect(page.locator(".form-field__error", has_text="Current password is incorrect.")).to_be_visible()
    expect(page.get_by_label("New password")).to_have_value(NEW_PASSWORD)
    page.get_by_label("Current password").fill(DEMO_PASSWORD)
    page.get_by_role("button", name="Update password").click()
    expect(page.get_by_text("Password updated successfully").first).to_be_visible()

    page.locator(".dash-profile summary").click()
    page.get_by_role("button", name="Logout").click()
    page.get_by_role("dialog", name="Logout").get_by_role("button", name="Logout").click()
    page.wait_for_url(re.compile(r"/$"))
    log_in_with_form(page, DEMO["renter"], NEW_PASSWORD)
    expect(page.locator(".dash-profile-name")).to_have_text("Rita Renter")


def test_host_invites_a_sub_host_who_sets_a_password_and_sees_the_bookings(page, people):
    listing = PricedEventListingFactory(host=people["host"], title="Loft by the Lake")
    booking_make(renter=people["renter"], listing=listing)
    sign_in(page, DEMO["host"])
    page.goto("/add-subhost")
    page.get_by_label("First name").fill("Sid")
    page.get_by_label("Last name").fill("Helper")
    page.get_by_label("Email").fill("renter@example.com")
    page.get_by_role("button", name="Send invitation").click()
    expect(page.locator(".form-field__error", has_text="An account with this email already exists.")).to_be_visible()
    expect(page.get_by_label("First name")).to_have_value("Sid")
    page.get_by_label("Email").fill("sid@example.com")
    page.get_by_role("button", name="Send invitation").click()
    page.wait_for_url(re.compile(r"/sub-hosts"))
    expect(page.get_by_role("cell", name=re.compile("sid@example.com"))).to_be_visible()
    assert User.objects.get(email="sid@example.com").host_id == people["host"].pk

    set_password_from_mail(page, "sid@example.com")
    log_in_with_form(page, "sid@example.com", NEW_PASSWORD)
    page.goto("/booking")
    expect(page.get_by_role("link", name="Loft by the Lake").first).to_be_visible()


def test_admin_adds_a_moderator_who_approves_a_host_after_opening_its_document(page, people, tmp_path):
    host = people["host"]
    User.objects.filter(pk=host.pk).update(is_verified=False)
    sign_in(page, DEMO["host"])
    page.goto("/profile")
    expect(page.get_by_test_id("verification-status")).to_contain_text("Unverified")
    page.locator("#verification-files").set_input_files(png(tmp_path / "passport.png", (30, 90, 200)))
    expect(page.get_by_role("link", name="passport.png")).to_be_visible()
    assert VerificationRequest.objects.filter(user=host, status="pending").exists()

    log_out(page)
    sign_in(page, DEMO["admin"])
    page.goto("/add-moderator")
    page.get_by_label("First name").fill("Mia")
    page.get_by_label("Last name").fill("Checks")
    page.get_by_label("Email").fill("mia@example.com")
    page.get_by_role("button", name="Send invitation").click()
    page.wait_for_url(re.compile(r"/moderators"))
    expect(page.get_by_role("cell", name=re.compile("mia@example.com"))).to_be_visible()

    set_password_from_mail(page, "mia@example.com")
    log_in_with_form(page, "mia@example.com", NEW_PASSWORD)
    page.goto("/verificationRequest")
    row = page.get_by_role("row", name=re.compile("Hannah Host"))
    row.get_by_role("button", name="Review").click()
    review = page.get_by_role("dialog", name=re.compile("Verification of Hannah Host"))
    document = review.get_by_role("img", name=re.compile("passport.png"))
    expect(document).to_be_visible()
    page.wait_for_function("img => img.complete && img.naturalWidth === 300", arg=document.element_handle())
    assert axe_violations(page, include=["dialog"]) == []
    review.get_by_role("button", name="Approve").click()
    page.get_by_role("dialog", name="Approve verification").get_by_role("button", name="Approve").click()
    expect(page.get_by_text("Host verified successfully.").first).to_be_visible()
    decided = VerificationRequest.objects.get(user=host)
    assert decided.status == "approved" and decided.decided_by.email == "mia@example.com"

    log_out(page)
    sign_in(page, DEMO["host"])
    page.goto("/profile")
    expect(page.get_by_test_id("verification-status")).to_contain_text("Verified")
    page.goto("/host/hannah")
    expect(page.locator(".host-profile")).to_contain_text("Verified")


def test_admin_edits_the_terms_and_the_public_page_shows_them_sanitised(page, people):
    sign_in(page, DEMO["admin"])
    page.goto("/cms")
    expect(page.locator("#cms-term")).to_have_text("Terms and Conditions")
    page.get_by_role("button", name="HTML source").click()
    source = page.get_by_role("textbox", name="Content")
    source.fill(
        '<h2>House rules v2</h2><p>Be <strong>kind</strong>.</p><script>window.hacked=1</script><img src="x" onerror="window.hacked=2">'
    )
    # The preview shows the draft, and its sandbox runs none of the draft's script.
    preview = page.locator("iframe[title='Terms and Conditions preview']")
    expect(preview).to_be_visible()
    expect(
        page.frame_locator("iframe[title='Terms and Conditions preview']").get_by_role("heading", name="House rules v2")
    ).to_be_attached()
    assert preview.evaluate("frame => frame.contentWindow.hacked") is None
    page.get_by_role("button", name="Save Terms and Conditions").click()
    expect(page.get_by_text(re.compile("updated successfully")).first).to_be_visible()

    page.goto("/terms-and-conditions")
    expect(page.get_by_role("heading", name="House rules v2")).to_be_visible()
    expect(page.locator("main")).to_contain_text("Be kind.")
    html = page.locator("main").inner_html()
    assert "<script" not in html and "onerror" not in html
    assert page.evaluate("window.hacked") is None


def test_staff_suspend_and_restore_a_host_and_a_host_manages_its_sub_hosts(page, people):
    sign_in(page, DEMO["moderator"])
    page.goto("/hosts")
    row = page.get_by_role("row", name=re.compile("host@example.com"))
    row.get_by_role("button", name="Suspend").click()
    page.get_by_role("dialog", name="Suspend account").get_by_role("button", name="Suspend").click()
    expect(page.get_by_text("Account suspended successfully.").first).to_be_visible()
    host = User.objects.get(email=DEMO["host"])
    assert host.is_active is False
    # The sub-host went with its host.
    assert User.objects.get(email=DEMO["subHost"]).is_active is False
    page.get_by_role("tab", name="Suspended").click()
    expect(page).to_have_url(re.compile(r"tab=suspended"))
    row = page.get_by_role("row", name=re.compile("host@example.com"))
    expect(row.get_by_role("button", name="Suspend")).to_have_count(0)
    row.get_by_role("button", name="Restore").click()
    page.get_by_role("dialog", name="Restore account").get_by_role("button", name="Restore").click()
    expect(page.get_by_text("Account restored successfully.").first).to_be_visible()
    assert User.objects.get(email=DEMO["host"]).is_active is True
    # Staff see no row action on their own kind: a moderator's list of moderators is not even open to it.
    page.goto("/moderators")
    expect(page.get_by_role("heading", name="Dashboard", exact=True)).to_be_visible()

    log_out(page)
    sign_in(page, DEMO["host"])
    page.goto("/add-subhost")
    page.get_by_label("First name").fill("Ivy")
    page.get_by_label("Last name").fill("Invited")
    page.get_by_label("Email").fill("ivy@example.com")
    page.get_by_role("button", name="Send invitation").click()
    page.wait_for_url(re.compile(r"/sub-hosts"))
    sent = len([m for m in mail.outbox if "ivy@example.com" in m.to])
    row = page.get_by_role("row", name=re.compile("ivy@example.com"))
    row.get_by_role("button", name="Resend invitation").click()
    expect(page.get_by_text("Invitation sent again.").first).to_be_visible()
    assert len([m for m in mail.outbox if "ivy@example.com" in m.to]) == sent + 1
    # The sub-host who chose a password offers no resend.
    chosen = page.get_by_role("row", name=re.compile("subhost@example.com"))
    expect(chosen.get_by_role("button", name="Resend invitation")).to_have_count(0)
    row.get_by_role("button", name="Delete").click()
    page.get_by_role("dialog", name="Delete account").get_by_role("button", name="Delete").click()
    expect(page.get_by_text("Sub-host removed successfully.").first).to_be_visible()
    assert User.objects.get(email="ivy@example.com").is_deleted is True
    assert axe_violations(page, include=["main"]) == []
