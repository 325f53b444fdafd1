"""The local gateway's checkout page: what the card provider's page is when no keys are set.

It shows what is being paid for (and, for the membership, the non-refundable terms) with Pay and
Cancel buttons, then returns through the same success and cancel addresses a Stripe checkout would.
"""

from django.conf import settings
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_http_methods, require_POST

from apps.core.exceptions import DomainError
from apps.core.safe_urls import safe_return_url

from .gateway import LocalGateway, local_checkout_enabled
from .models import CheckoutPurpose, LocalCheckoutSession
from .premium import PREMIUM_TERMS


def _complete(session_id: str) -> LocalCheckoutSession:
    from . import subscriptions

    with transaction.atomic():
        session = LocalGateway().pay(session_id)
        if session.purpose == CheckoutPurpose.SUBSCRIPTION:
            subscriptions.subscription_checkout_confirm(session_id=session.id)
        else:
            from .services import payment_checkout_confirm

            payment_checkout_confirm(session_id=session.id)
    return session


def _local_session(session_id: str, queryset=None) -> LocalCheckoutSession:
    """The session, only while the local checkout is the site's gateway (never beside Stripe)."""
    if not local_checkout_enabled():
        raise Http404("The local checkout is not enabled.")
    return get_object_or_404(queryset if queryset is not None else LocalCheckoutSession, id=session_id)


@require_http_methods(["GET"])
def local_checkout(request: HttpRequest, session_id: str) -> HttpResponse:
    session = _local_session(session_id)
    return render(request, "payments/local_checkout.html", _context(session))


def _context(session: LocalCheckoutSession, error: str = "") -> dict:
    return {
        "session": session,
        "amount": f"${session.amount:,.2f}",
        "terms": session.terms or (PREMIUM_TERMS if session.purpose == CheckoutPurpose.SUBSCRIPTION else ""),
        "hold": session.capture_later,
        "error": error,
    }


def _back(url: str) -> HttpResponse:
    """Back to the page the checkout was started from, checked again as it leaves (a session stored
    before the one URL-safety check could name another site)."""
    return redirect(safe_return_url(url) or settings.SITE_URL + "/dashboard")


@require_POST
def local_checkout_pay(request: HttpRequest, session_id: str) -> HttpResponse:
    session = _local_session(session_id)
    if session.status == LocalCheckoutSession.Status.CANCELLED:
        return render(
            request, "payments/local_checkout.html", _context(session, "This checkout was cancelled."), status=409
        )
    try:
        session = _complete(session.id)
    except DomainError as exc:
        session.refresh_from_db()
        return render(request, "payments/local_checkout.html", _context(session, exc.message), status=exc.status_code)
    return _back(session.success_url)


@require_POST
def local_checkout_cancel(request: HttpRequest, session_id: str) -> HttpResponse:
    from . import subscriptions

    with transaction.atomic():
        session = _local_session(session_id, LocalCheckoutSession.objects.select_for_update())
        if session.status == LocalCheckoutSession.Status.COMPLETE:
            return _back(session.success_url)
        session.status = LocalCheckoutSession.Status.CANCELLED
        session.save(update_fields=["status"])
        if session.purpose == CheckoutPurpose.SUBSCRIPTION:
            subscriptions.subscription_checkout_abandon(session_id=session.id)
        else:
            from .services import payment_checkout_abandon

            payment_checkout_abandon(session_id=session.id)
    return _back(session.cancel_url)
