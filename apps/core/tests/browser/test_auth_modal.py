"""The authentication modal in a real browser: register, verify, log in; forgot and reset password."""

import re

import pytest
from django.core import mail
from playwright.sync_api import expect

from apps.accounts.factories import PASSWORD, UserFactory
from apps.accounts.models import User

pytestmark = pytest.mark.django_db(transaction=True)


def last_code(email: str) -> str:
    message = [m for m in mail.outbox if email in m.to][-1]
    return re.search(r"\b(\d{5})\b", message.subject + message.body).group(1)


def modal(page):
    return page.locator("dialog.auth-modal")


def type_code(page, code: str) -> None:
    page.get_by_label("Digit 1 of 5").click()
    page.keyboard.type(code)


def log_in(page, email: str, password: str) -> None:
    dialog = modal(page)
    expect(dialog.get_by_role("heading", name="Welcome back Please log in")).to_be_visible()
    dialog.get_by_label("Email").fill(email)
    dialog.get_by_role("textbox", name="Password", exact=True).fill(password)
    dialog.get_by_role("button", name="Login").click()


def test_register_verify_and_log_in(page, live_server):
    page.goto("/")
    page.get_by_role("link", name="Sign up").click()
    dialog = modal(page)
    expect(dialog.get_by_role("heading", name="Create an account")).to_be_visible()
    assert page.url.rstrip("/") == live_server.url  # the link opened the modal in place

    # The spec's messages, shown once the form was submitted.
    dialog.get_by_role("button", name="Register").click()
    expect(dialog.get_by_text("Email is required")).to_be_visible()
    expect(dialog.get_by_text("You must agree to the terms.")).to_be_visible()

    dialog.get_by_label("Email").fill("new.renter@example.com")
    password = dialog.get_by_role("textbox", name="Password", exact=True)
    password.fill("abc")
    expect(dialog.get_by_role("meter")).to_have_count(0)  # score 0 hides the meter
    password.fill("Secret12!x")
    expect(dialog.get_by_text("Strong")).to_be_visible()
    dialog.get_by_label("Confirm Password").fill("Secret12!y")
    dialog.get_by_label("Confirm Password").blur()
    expect(dialog.get_by_text("Passwords must match")).to_be_visible()
    dialog.get_by_label("Confirm Password").fill("Secret12!x")
    expect(dialog.get_by_label("Role")).to_have_value("renter")
    dialog.get_by_label("I agree to the").check()
    dialog.get_by_role("button", name="Register").click()

    expect(dialog.get_by_role("heading", name="Enter OTP")).to_be_visible()
    expect(dialog.get_by_text("Please enter the 5-digit verification code sent to your email.")).to_be_visible()
    expect(dialog.get_by_role("button", name=re.compile(r"Resend OTP in [12]:\d\d"))).to_be_disabled()
    user = User.objects.get(email="new.renter@example.com")
    assert not user.account_verified

    type_code(page, last_code("new.renter@example.com"))
    dialog.get_by_role("button", name="Submit").click()
    # The code signs the new account in: no second login.
    page.wait_for_url("**/dashboard")
    expect(page.get_by_text("User account verified successfully").first).to_be_visible()
    user.refresh_from_db()
    assert user.account_verified
    page.goto("/about-us")
    expect(page.get_by_role("button", name="Sign Out")).to_be_visible()
    expect(page.locator("header.navbar").get_by_role("link", name="Become a Host")).to_have_count(0)


def test_unverified_login_goes_to_code_verification(page):
    UserFactory(email="late@example.com", account_verified=False)
    page.goto("/login")
    log_in(page, "late@example.com", PASSWORD)
    dialog = modal(page)
    expect(dialog.get_by_role("heading", name="Enter OTP")).to_be_visible()
    type_code(page, last_code("late@example.com"))
    dialog.get_by_role("button", name="Submit").click()
    page.wait_for_url("**/dashboard")
    expect(page.get_by_text("User account verified successfully").first).to_be_visible()
    expect(modal(page)).to_have_count(0)


def test_wrong_password_shows_the_servers_message_and_stays(page):
    UserFactory(email="ana@example.com")
    page.goto("/listing-details/anything")  # any page: the modal opens over it
    page.goto("/login")
    log_in(page, "ana@example.com", "Wrong-pass1")
    expect(page.locator(".toast").filter(has_text="Invalid email or password.")).to_be_visible()
    expect(modal(page)).to_be_visible()


def test_forgot_and_reset_password(page):
    UserFactory(email="forgetful@example.com")
    page.goto("/login")
    dialog = modal(page)
    dialog.get_by_role("button", name="Forgot password?").click()
    expect(dialog.get_by_role("heading", name="Provide Email")).to_be_visible()
    dialog.get_by_role("button", name="Back").click()  # back arrow returns to login
    expect(dialog.get_by_role("heading", name="Welcome back Please log in")).to_be_visible()
    dialog.get_by_role("button", name="Forgot password?").click()
    dialog.get_by_label("Email").fill("forgetful@example.com")
    dialog.get_by_role("button", name="Submit").click()

    expect(dialog.get_by_role("heading", name="Enter OTP")).to_be_visible()
    type_code(page, last_code("forgetful@example.com"))
    dialog.get_by_role("button", name="Submit").click()

    expect(dialog.get_by_role("heading", name="Reset Your Password")).to_be_visible()
    dialog.get_by_role("textbox", name="Password", exact=True).fill("Brand-new1")
    dialog.get_by_label("Confirm Password").fill("Brand-new2")
    dialog.get_by_role("button", name="Submit").click()
    expect(dialog.get_by_text("Passwords does not match")).to_be_visible()
    dialog.get_by_label("Confirm Password").fill("Brand-new1")
    dialog.get_by_role("button", name="Submit").click()

    expect(dialog.get_by_role("status").filter(has_text="Password updated successfully")).to_be_visible()
    log_in(page, "forgetful@example.com", "Brand-new1")
    page.wait_for_url("**/dashboard")


def test_reset_password_page_opens_the_reset_step_over_home(page):
    page.goto("/reset-password")
    dialog = modal(page)
    expect(dialog.get_by_role("heading", name="Reset Your Password")).to_be_visible()
    expect(page.get_by_role("heading", level=1)).to_be_visible()  # the home page is beneath
    dialog.get_by_role("button", name="Send me a code").click()
    expect(dialog.get_by_role("heading", name="Provide Email")).to_be_visible()


def test_become_host_register_preselects_host_and_back_arrow_closes(page):
    page.goto("/become-host?auth=register&role=host")
    dialog = modal(page)
    expect(dialog.get_by_label("Role")).to_have_value("host")
    dialog.get_by_label("Email").fill("new.host@example.com")
    dialog.get_by_role("textbox", name="Password", exact=True).fill("Secret12!x")
    dialog.get_by_label("Confirm Password").fill("Secret12!x")
    dialog.get_by_label("I agree to the").check()
    dialog.get_by_role("button", name="Register").click()
    expect(dialog.get_by_role("heading", name="Enter OTP")).to_be_visible()
    assert User.objects.get(email="new.host@example.com").role == "host"
    dialog.get_by_role("button", name="Back").click()
    expect(modal(page)).to_have_count(0)


def test_remember_me_keeps_the_email_for_this_path(page):
    UserFactory(email="keep@example.com")
    page.goto("/login")
    dialog = modal(page)
    dialog.get_by_label("Email").fill("keep@example.com")
    dialog.get_by_role("textbox", name="Password", exact=True).fill(PASSWORD)
    dialog.get_by_label("Remember me").check()
    dialog.get_by_role("button", name="Login").click()
    page.wait_for_url("**/dashboard")
    cookies = {c["name"]: c for c in page.context.cookies()}
    assert cookies["rememberMeEmail"]["value"] == "keep%40example.com"
    assert cookies["rememberMeEmail"]["path"] == "/login"
    assert 6.9 * 86400 < cookies["rememberMeEmail"]["expires"] - __import__("time").time() <= 7 * 86400
