from django.contrib import admin

from apps.accounts.policies import admin_only_fields

from . import services
from .models import ContactDetails, Page, ReviewSettings
from .sanitize import sanitize_html


@admin.register(Page)
class PageAdmin(admin.ModelAdmin):
    list_display = ("title", "slug", "updated_at", "updated_by")
    list_filter = ("slug", "updated_at")
    search_fields = ("title", "content")
    readonly_fields = ("slug", "updated_at", "updated_by")
    fields = ("slug", "title", "content", "updated_at", "updated_by")

    def has_add_permission(self, request) -> bool:
        return False  # the four pages exist from the start (seed or first read)

    def has_delete_permission(self, request, obj=None) -> bool:
        return False

    def save_model(self, request, obj, form, change) -> None:
        services.cms_page_update(slug=obj.slug, content=obj.content, title=obj.title, actor=request.user)
        obj.content = sanitize_html(obj.content)


class SingletonAdmin(admin.ModelAdmin):
    readonly_fields = ("updated_at", "updated_by")

    def has_add_permission(self, request) -> bool:
        return super().has_add_permission(request) and not self.model.objects.exists()

    def has_delete_permission(self, request, obj=None) -> bool:
        return False

    def save_model(self, request, obj, form, change) -> None:
        obj.updated_by = request.user
        super().save_model(request, obj, form, change)


@admin.register(ContactDetails)
class ContactDetailsAdmin(SingletonAdmin):
    list_display = ("full_name", "location", "recipient_email", "updated_at", "updated_by")
    search_fields = ("full_name", "location", "recipient_email")
    fields = ("full_name", "location", "recipient_email", "updated_at", "updated_by")

    def get_readonly_fields(self, request, obj=None):
        # The moderator edits the texts; where the mails go is the admin's (accounts.policies).
        return (*super().get_readonly_fields(request, obj), *admin_only_fields(request.user, "cms.contactdetails"))


@admin.register(ReviewSettings)
class ReviewSettingsAdmin(SingletonAdmin):
    list_display = ("__str__", "auto_publish", "updated_at", "updated_by")
    list_filter = ("auto_publish",)
    fields = ("auto_publish", "updated_at", "updated_by")
