from django.urls import path

from . import views

app_name = "cms"

# The spec names cms/term/get; the other pages follow the same pattern.
PAGE_PATHS = {"term": "terms", "privacy": "privacy", "about": "about", "faq": "faq"}

urlpatterns = [
    *(
        path(f"cms/{name}/get", views.PageGetView.as_view(slug=slug), name=f"{name}-get")
        for name, slug in PAGE_PATHS.items()
    ),
    *(
        path(f"cms/{name}/update", views.PageUpdateView.as_view(slug=slug), name=f"{name}-update")
        for name, slug in PAGE_PATHS.items()
    ),
    path("cms/contact/get", views.ContactGetView.as_view(), name="contact-get"),
    path("cms/contact/update", views.ContactUpdateView.as_view(), name="contact-update"),
    path("cms/contact/send-mail", views.ContactSendMailView.as_view(), name="contact-send-mail"),
    path("cms/review-setting/get", views.ReviewSettingsView.as_view(), name="review-setting-get"),
    path("cms/review-setting/update", views.ReviewSettingsUpdateView.as_view(), name="review-setting-update"),
]
