from django.conf import settings
from django.contrib import admin
from django.urls import include, path, re_path
from django.views.static import serve
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from apps.core import views as core_views

api_patterns = [
    path("user/", include("apps.accounts.urls")),
    path("", include("apps.accounts.media_urls")),
    path("", include("apps.listings.urls")),
    path("", include("apps.bookings.urls")),
    path("", include("apps.payments.urls")),
    path("", include("apps.disputes.urls")),
    path("", include("apps.cms.urls")),
    path("", include("apps.notifications.urls")),
    path("", include("apps.messaging.urls")),
    path("dashboard/", include("apps.statistics.urls")),
    path("", include("apps.core.urls")),
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    path("docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="api-docs"),
    re_path(r"^.*$", core_views.not_found),  # unknown API paths answer JSON, also with DEBUG on
]

urlpatterns = [
    path("healthz", core_views.healthz, name="healthz"),
    path("api/", include(api_patterns)),
    path("django-admin/", admin.site.urls),
    # User uploads. In production they come from object storage (django-storages) or the proxy.
    path(f"{settings.MEDIA_URL.strip('/')}/<path:path>", serve, {"document_root": settings.MEDIA_ROOT}),
    path("", include("apps.core.page_urls")),
]

handler400 = "apps.core.views.bad_request"
handler403 = "apps.core.views.permission_denied"
handler404 = "apps.core.views.not_found"
handler500 = "apps.core.views.server_error"
