"""The calendar feed escapes and folds every value (RFC 5545): a name cannot inject a property (issue 24, 11)."""

import pytest

from apps.bookings.tests.conftest import make_booking

pytestmark = pytest.mark.django_db


def _feed(clients, api, listing) -> bytes:
    url = clients["host"].get(f"/api/listing/calendar-url/{listing.pk}").json()["data"]["url"]
    response = api.get(url.split("127.0.0.1:8000", 1)[-1].split("testserver", 1)[-1])
    assert response.status_code == 200
    return response.content


@pytest.mark.parametrize("breaker", ["\r", "\n", "\r\n", "\x0b", "\x0c", "\u2028", "\x85"])
def test_a_line_break_in_a_name_never_starts_a_property(clients, users, event_listing, api, breaker):
    renter = users["renter"]
    renter.first_name = f"Eve{breaker}ATTENDEE:mailto:evil@example.com{breaker}X"
    renter.save(update_fields=["first_name"])
    event_listing.title = f"Loft{breaker}METHOD:CANCEL\x01\x1b"
    event_listing.save(update_fields=["title"])
    make_booking(renter, event_listing)
    body = _feed(clients, api, event_listing)
    # Lines end with CRLF only; no bare CR or LF and no other control character anywhere.
    lines = body.split(b"\r\n")
    assert all(b"\r" not in line and b"\n" not in line for line in lines)
    assert not any(byte < 0x20 and byte not in (0x09, 0x0D, 0x0A) for byte in body)
    unfolded = body.replace(b"\r\n ", b"").decode().split("\r\n")
    # The feed's own METHOD:PUBLISH is the only METHOD line; the injected ones never start a line.
    assert not any(line.startswith(("ATTENDEE", "METHOD:CANCEL", "X\\")) for line in unfolded)
    summary = next(line for line in unfolded if line.startswith("SUMMARY:"))
    assert "Eve\\nATTENDEE:mailto:evil@example.com\\nX" in summary


def test_long_lines_are_folded_at_75_octets(clients, users, event_listing, api):
    event_listing.title = "Salle de réunion très lumineuse " * 3 + "😀" * 20
    event_listing.save(update_fields=["title"])
    make_booking(users["renter"], event_listing)
    body = _feed(clients, api, event_listing)
    for line in body.split(b"\r\n"):
        assert len(line) <= 75
        line.decode()  # never cut inside a character
    unfolded = body.replace(b"\r\n ", b"").decode()
    assert "X-WR-CALNAME:" + "Salle de réunion très lumineuse " * 3 + "😀" * 20 in unfolded
