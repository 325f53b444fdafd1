"""The Content-Security-Policy in a real browser: pages and the signed-in shell run their scripts
(islands, the sidebar's inline script) with no policy violation."""

import io

import pytest
from playwright.sync_api import expect

from apps.accounts.seed import seed as seed_accounts
from apps.dashboard.tests.browser.test_shell import sign_in

pytestmark = pytest.mark.django_db(transaction=True)


def _watch_violations(page) -> list[str]:
    violations: list[str] = []
    page.on(
        "console",
        lambda message: violations.append(message.text) if "Content Security Policy" in message.text else None,
    )
    return violations


def test_public_pages_run_under_the_policy(page):
    violations = _watch_violations(page)
    response = page.goto("/")
    script_src = response.headers["content-security-policy"].split("script-src", 1)[1].split(";", 1)[0]
    assert "'unsafe-inline'" not in script_src
    page.get_by_role("link", name="Login").first.click()
    expect(page.get_by_role("dialog")).to_be_visible()  # an island mounted and reacted
    assert violations == []


def test_the_signed_in_shell_runs_its_inline_script_with_the_nonce(page):
    seed_accounts(io.StringIO())
    violations = _watch_violations(page)
    sign_in(page, "host@example.com")
    page.evaluate("localStorage.removeItem('dashboardTheme')")
    response = page.goto("/dashboard")
    assert "'nonce-" in response.headers["content-security-policy"]
    # The sidebar's inline script ran: it stores the sidebar state as the page loads.
    assert page.evaluate("localStorage.getItem('dashboardTheme')") is not None
    expect(page.get_by_role("navigation").first).to_be_visible()
    assert violations == []
