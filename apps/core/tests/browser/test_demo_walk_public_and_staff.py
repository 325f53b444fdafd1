"""The demo walk (apps/core/tests/browser/demo_walk.py), part 1 of 2: every public page as a visitor, and every signed-in route as the admin and the moderator, at 1280 and 390 px,
on the data `seed_demo` creates. One test per file: the live server empties the database after each
test, and the two files run on the two test workers side by side."""

import pytest

from apps.core.tests.browser.demo_walk import start, walk_page, walk_public_pages, walk_signed_in

pytestmark = pytest.mark.django_db(transaction=True)
__all__ = ["walk_page"]


def test_the_public_pages_and_the_staff_routes_on_the_demo_data(walk_page):
    visit = start(walk_page)
    walk_public_pages(walk_page, visit)
    for role in ("admin", "moderator"):
        walk_signed_in(walk_page, visit, role)
    assert not visit.problems, "\n".join(visit.problems)
