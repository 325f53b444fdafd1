from django.urls import path

from . import pages

urlpatterns = [
    path(step, pages.booking_step, {"step": step}, name=f"booking-step-{step}")
    for step in ("request-booking-details", "event-booking-details", "services-and-add-ons", "review-and-pay")
]
