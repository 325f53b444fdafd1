"""The local gateway's checkout page: what the card provider's page is when no keys are set.

It shows what is being paid for (and, for the membership, the non-refundable terms) with Pay and
Cancel buttons, then returns through the same success and cancel addresses a Stripe checkout would.
"""

from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_http_methods, require_POST

from apps.core.exceptions import DomainError

from .gateway import LocalGateway
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


@require_http_methods(["GET"])
def local_checkout(request: HttpRequest, session_id: str) -> HttpResponse:
    session = get_object_or_404(LocalCheckoutSession, id=session_id)
    return render(request, "payments/local_checkout.html", _context(session))


def _context(session: LocalCheckoutSession, error: str = "") -> dict:
    return {
        "session": session,
        "amount": f"${session.amount:,.2f}",
        "terms": session.terms or (PREMIUM_TERMS if session.purpose == CheckoutPurpose.SUBSCRIPTION else ""),
        "hold": session.capture_later,
        "error": error,
    }


@require_POST
def local_checkout_pay(request: HttpRequest, session_id: str) -> HttpResponse:
    session = get_object_or_404(LocalCheckoutSession, id=session_id)
    if session.status == LocalCheckoutSession.Status.CANCELLED:
        return render(
            request, "payments/local_checkout.html", _context(session, "This checkout was cancelled."), status=409
        )
    try:
        session = _complete(session.id)
    except DomainError as exc:
        session.refresh_from_db()
        return render(request, "payments/local_checkout.html", _context(session, exc.message), status=exc.status_code)
    return redirect(session.success_url)


@require_POST
def local_checkout_cancel(request: HttpRequest, session_id: str) -> HttpResponse:
    from . import subscriptions

    with transaction.atomic():
        session = get_object_or_404(LocalCheckoutSession.objects.select_for_update(), id=session_id)
        if session.status == LocalCheckoutSession.Status.COMPLETE:
            return redirect(session.success_url)
        session.status = LocalCheckoutSession.Status.CANCELLED
        session.save(update_fields=["status"])
        if session.purpose == CheckoutPurpose.SUBSCRIPTION:
            subscriptions.subscription_checkout_abandon(session_id=session.id)
        else:
            from .services import payment_checkout_abandon

            payment_checkout_abandon(session_id=session.id)
    return redirect(session.cancel_url)
