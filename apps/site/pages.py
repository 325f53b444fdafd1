"""The public site's pages (server-rendered): home, about and FAQ, contact, terms, privacy, become a
host and robots.txt. Each page is complete HTML without JavaScript and carries its title, description,
canonical URL and Open Graph tags (templates/base.html blocks).
"""

from datetime import date
from typing import Any

from django.core.cache import cache
from django.db.models import Count
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.text import slugify

from apps.cms.selectors import cms_page_get, contact_details_get
from apps.listings import search as discovery
from apps.listings.pages import absolute, ld_json, with_image_urls
from apps.listings.search import CARD_FIELDS, CATEGORIES, cards, searchable_listings
from apps.premium.policies import DELETION_CLAUSE


def _cms_page(slug: str) -> str | None:
    """Sanitized HTML of a CMS page (terms, privacy, about, faq)."""
    try:
        return cms_page_get(slug).content or None
    except ValueError:
        return None


def _contact_details() -> dict[str, str]:
    details = contact_details_get()
    return {"fullName": details.full_name, "location": details.location, "recepientEmail": details.recipient_email}


def home(request: HttpRequest) -> HttpResponse:
    featured = with_image_urls(
        cards(
            discovery.with_featured(searchable_listings())
            .order_by("-featured", "-rating_average", "-created_at")
            .values(*CARD_FIELDS)[:6],
            user=request.user,
        )
    )
    popular = with_image_urls(
        cards(
            discovery.with_featured(searchable_listings())
            .order_by("-rating_count", "-rating_average", "-created_at")
            .values(*CARD_FIELDS)[:6],
            user=request.user,
        )
    )
    context = {
        "featured": featured,
        "popular": popular,
        "cities": top_cities(),
        "categories": CATEGORIES,
        "website_ld": ld_json(
            {
                "@context": "https://schema.org",
                "@type": "WebSite",
                "name": "Spacemarket",
                "url": absolute("/"),
                "potentialAction": {
                    "@type": "SearchAction",
                    "target": absolute("/property-listing?title={search_term_string}"),
                    "query-input": "required name=search_term_string",
                },
            }
        ),
    }
    return render(request, "site/home.html", context)


def top_cities(limit: int = 12) -> list[dict[str, Any]]:
    """Cities with the most public listings (cached ten minutes: a grouping over every listing)."""
    key = f"listings:top-cities:{limit}"
    cities = cache.get(key)
    if cities is None:
        rows = (
            searchable_listings()
            .values("city", "country")
            .annotate(count=Count("id"))
            .order_by("-count", "city")[:limit]
        )
        cities = [
            {**row, "slug": slugify(row["city"]), "url": f"/coworking-spaces/{slugify(row['city'])}"} for row in rows
        ]
        cache.set(key, cities, 600)
    return cities


FAQ = [
    (
        "How do I book a space?",
        "Find a space through the search or a city page, choose dates and an offering on the listing page, "
        "add services if you need them, and send your request. The host approves it and you are charged then.",
    ),
    (
        "When am I charged?",
        "Your card is authorised when you request a booking and charged when the host approves it. "
        "If the host rejects it or does not answer in time, the authorisation is released.",
    ),
    (
        "Can I cancel a booking?",
        "Yes. Each listing shows its cancellation policy (flexible, moderate or strict) and the refund it gives.",
    ),
    (
        "How do I list my space?",
        "Sign up as a host, add your listing with photos, prices and opening hours, and submit it. "
        "Our team reviews every new listing before it appears in search.",
    ),
    (
        "What does premium membership give hosts?",
        "An annual premium membership puts your listings first in search. It is non refundable; premium "
        f"listings are {DELETION_CLAUSE}.",
    ),
    (
        "What if something goes wrong during a booking?",
        "Open a dispute from the booking. Our team reviews it and can refund you from the booking's payment.",
    ),
]


def about(request: HttpRequest) -> HttpResponse:
    if request.GET.get("scroll") == "faq":
        # Without JavaScript the only way to land on the FAQ is its fragment.
        return redirect("/about-us#faq")
    faq_html = _cms_page("faq")
    context = {
        "faq": [{"question": question, "answer": answer} for question, answer in FAQ],
        "faq_html": faq_html,
        "about_html": _cms_page("about"),
        "faq_ld": ""
        if faq_html
        else ld_json(
            {
                "@context": "https://schema.org",
                "@type": "FAQPage",
                "mainEntity": [
                    {"@type": "Question", "name": question, "acceptedAnswer": {"@type": "Answer", "text": answer}}
                    for question, answer in FAQ
                ],
            }
        ),
    }
    return render(request, "site/about.html", context)


CONTACT_FIELDS = ("name", "phoneNumber", "email", "message")


def contact(request: HttpRequest) -> HttpResponse:
    """Contact Us. The island posts to the API; without JavaScript the form posts here and gets a
    page back (never JSON): the same rules, messages and rate limit as the API, what was typed kept."""
    from rest_framework.request import Request
    from rest_framework.throttling import ScopedRateThrottle

    from apps.cms import services as cms_services
    from apps.cms.serializers import ContactMailInput

    context: dict[str, Any] = {"details": _contact_details(), "values": {}, "errors": {}, "sent": False}
    if request.method == "POST":
        values = {field: request.POST.get(field, "").strip() for field in CONTACT_FIELDS}
        context["values"] = values
        throttle_view = type("ContactThrottle", (), {"throttle_scope": "contact"})()
        if not ScopedRateThrottle().allow_request(Request(request), throttle_view):
            context["form_error"] = "Too many messages from this address. Please try again in a minute."
            return render(request, "site/contact.html", context, status=429)
        form = ContactMailInput(data={key: value for key, value in values.items() if value})
        if not form.is_valid():
            context["errors"] = {
                field: [str(message) for message in messages] for field, messages in form.errors.items()
            }
            context["form_error"] = "Please correct the fields below."
            return render(request, "site/contact.html", context, status=400)
        data = form.validated_data
        cms_services.contact_mail_send(
            name=data["name"], phone_number=data["phoneNumber"], email=data["email"], message=data["message"]
        )
        return redirect("/contact-us?sent=1")
    context["sent"] = request.GET.get("sent") == "1"
    return render(request, "site/contact.html", context)


def terms(request: HttpRequest) -> HttpResponse:
    context = {"content": _cms_page("terms"), "today": date.today(), "premium_deletion": DELETION_CLAUSE}
    return render(request, "site/terms.html", context)


def privacy(request: HttpRequest) -> HttpResponse:
    return render(request, "site/privacy.html", {"content": _cms_page("privacy"), "today": date.today()})


def become_host(request: HttpRequest) -> HttpResponse:
    context = {"categories": CATEGORIES, "premium_deletion": DELETION_CLAUSE}
    return render(request, "site/become_host.html", context)


def robots_txt(request: HttpRequest) -> HttpResponse:
    lines = [
        "User-agent: *",
        "Disallow: /api/",
        "Disallow: /dashboard",
        "Disallow: /django-admin/",
        "Allow: /",
        f"Sitemap: {absolute('/sitemap.xml')}",
        "",
    ]
    return HttpResponse("\n".join(lines), content_type="text/plain")
