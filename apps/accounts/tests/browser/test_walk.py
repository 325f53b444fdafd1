"""Every account and back-office route, as every role the route table allows: the page is built (no
"coming soon"), shows its heading, passes the axe check, and fits a 390 px wide screen."""

import io

import pytest
from playwright.sync_api import expect

from apps.accounts.models import User
from apps.accounts.seed import seed as seed_accounts
from apps.core.tests.browser.fixtures import axe_violations, settle
from apps.dashboard.navigation import ROUTES_BY_NAME
from apps.dashboard.tests.browser.test_shell import DEMO, sign_in

pytestmark = pytest.mark.django_db(transaction=True)

PAGES = [
    ("profile", "/profile", "Information"),
    ("profile-edit", "/profile/edit", "Edit Profile"),
    ("general", "/general", "General Settings"),
    ("hosts", "/hosts", "Hosts"),
    ("renters", "/renters", "Renters"),
    ("sub-hosts", "/sub-hosts", "Sub Hosts"),
    ("moderators", "/moderators", "Moderators"),
    ("addhost", "/addhost", "Add Host"),
    ("add-subhost", "/add-subhost", "Add Sub Host"),
    ("add-moderator", "/add-moderator", "Add Moderator"),
    ("verificationRequest", "/verificationRequest", "Verification Requests"),
    ("cms", "/cms", "CMS Pages"),
    ("review-setting", "/review-setting", "Reviews Settings"),
]


@pytest.mark.parametrize("role", list(DEMO))
def test_every_route_of_the_role_is_built_accessible_and_fits_390_px(page, role):
    seed_accounts(io.StringIO())
    sign_in(page, DEMO[role])
    host = User.objects.get(email=DEMO["host"])
    routes = [item for item in PAGES if ROUTES_BY_NAME[item[0]].allows(role)]
    routes.append(("view-user", f"/view-user/{host.pk}", "Hannah Host"))
    for width in (1280, 390):
        page.set_viewport_size({"width": width, "height": 900})
        for _name, path, heading in routes:
            page.goto(path)
            main = page.locator("main")
            expect(page.get_by_role("heading", name=heading, exact=True).first).to_be_visible()
            expect(main).not_to_contain_text("This page is coming soon")
            settle(page)
            if width == 390:
                overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
                assert overflow <= 0, f"{path} is {overflow}px wider than the screen for {role}"
            else:
                assert axe_violations(page, include=["main"]) == [], (role, path)
