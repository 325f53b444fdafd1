"""Contact Us without JavaScript: the form posts to the page and always gets a page back, never JSON."""

import pytest
from django.core import mail
from django.test import Client

GOOD = {"name": "Jane Doe", "phoneNumber": "2261234567", "email": "jane@example.com", "message": "Is the loft free?"}


class FormClient(Client):
    """A browser without JavaScript; on-commit callbacks (the queued mail) run when each request ends."""

    def generic(self, *args, **kwargs):
        from django.test import TestCase

        with TestCase.captureOnCommitCallbacks(execute=True):
            return super().generic(*args, **kwargs)


@pytest.fixture
def browser() -> Client:
    return FormClient(enforce_csrf_checks=True)


def csrf_token(browser: Client) -> str:
    browser.get("/contact-us")
    return browser.cookies["csrftoken"].value


def post(browser: Client, data: dict):
    return browser.post("/contact-us", {**data, "csrfmiddlewaretoken": csrf_token(browser)})


@pytest.mark.django_db
def test_the_form_posts_to_the_page_and_the_island_takes_it_over():
    page = Client().get("/contact-us").content.decode()
    assert 'action="/contact-us"' in page
    assert 'data-island="ContactForm"' in page
    for field in ("name", "phoneNumber", "email", "message"):
        assert f'name="{field}"' in page


@pytest.mark.django_db
def test_a_good_message_is_mailed_and_answered_with_a_page(browser):
    mail.outbox.clear()
    response = post(browser, GOOD)
    assert response.status_code == 302
    assert response["Location"] == "/contact-us?sent=1"
    assert len(mail.outbox) == 1
    assert "Is the loft free?" in mail.outbox[0].body
    page = browser.get(response["Location"])
    assert page["Content-Type"].startswith("text/html")
    assert "Mail sent." in page.content.decode()


@pytest.mark.django_db
def test_bad_input_gets_the_page_back_with_the_messages_and_what_was_typed(browser):
    mail.outbox.clear()
    response = post(browser, {**GOOD, "name": "R2D2", "phoneNumber": "12345678901", "email": ""})
    assert response.status_code == 400
    assert response["Content-Type"].startswith("text/html")
    page = response.content.decode()
    assert "No digits allowed." in page
    assert "Phone must be at most 10 characters long" in page
    assert "Email is required" in page
    assert 'value="R2D2"' in page
    assert "Is the loft free?" in page
    assert not mail.outbox


@pytest.mark.django_db
def test_the_page_shares_the_api_rate_limit(browser):
    mail.outbox.clear()
    codes = [post(browser, GOOD).status_code for _ in range(6)]
    assert codes[:5] == [302] * 5
    assert codes[5] == 429
    assert "Too many messages" in post(browser, GOOD).content.decode()
    assert len(mail.outbox) == 5


@pytest.mark.django_db
def test_a_post_without_the_csrf_token_is_refused_and_sends_nothing(browser):
    mail.outbox.clear()
    response = browser.post("/contact-us", GOOD)
    assert response.status_code == 403
    assert not mail.outbox
