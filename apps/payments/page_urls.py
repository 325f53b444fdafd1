from django.urls import path

from . import pages

urlpatterns = [
    path("checkout/<str:session_id>", pages.local_checkout, name="local-checkout"),
    path("checkout/<str:session_id>/pay", pages.local_checkout_pay, name="local-checkout-pay"),
    path("checkout/<str:session_id>/cancel", pages.local_checkout_cancel, name="local-checkout-cancel"),
]
