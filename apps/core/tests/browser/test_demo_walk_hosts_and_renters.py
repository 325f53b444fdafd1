"""The demo walk (apps/core/tests/browser/demo_walk.py), part 2 of 2: every signed-in route as the host, the sub-host and the renter, at 1280 and 390 px,
on the data `seed_demo` creates. One test per file: the live server empties the database after each
test, and the two files run on the two test workers side by side."""

import pytest

from apps.core.tests.browser.demo_walk import start, walk_page, walk_signed_in

pytestmark = pytest.mark.django_db(transaction=True)
__all__ = ["walk_page"]


def test_the_host_sub_host_and_renter_routes_on_the_demo_data(walk_page):
    visit = start(walk_page)
    for role in ("host", "subHost", "renter"):
        walk_signed_in(walk_page, visit, role)
    assert not visit.problems, "\n".join(visit.problems)
