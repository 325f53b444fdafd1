"""Server-rendered pages. Each app adds its own pages module here; anything else is the 404 page."""

from django.urls import include, path

from . import pages

urlpatterns = [
    path("logout", pages.sign_out, name="sign-out"),
    path("login", pages.auth_page, name="auth-login"),
    path("register", pages.auth_page, name="auth-register"),
    path("reset-password", pages.auth_page, name="auth-reset-password"),
    path("", include("apps.accounts.page_urls")),
    path("", include("apps.dashboard.page_urls")),
    path("", include("apps.site.page_urls")),
    path("", include("apps.listings.page_urls")),
    path("", include("apps.payments.page_urls")),
    path("", include("apps.bookings.page_urls")),
    path("", include("apps.notifications.page_urls")),
]
