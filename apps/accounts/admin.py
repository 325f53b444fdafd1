from django.contrib import admin

from .models import OneTimeCode, User


class SubHostInline(admin.TabularInline):
    model = User
    fk_name = "host"
    fields = ("email", "first_name", "last_name", "is_active", "is_deleted")
    readonly_fields = fields
    extra = 0
    can_delete = False
    verbose_name = "sub-host"

    def has_add_permission(self, request, obj=None) -> bool:
        return False


@admin.register(User)
class UserAdmin(admin.ModelAdmin):
    list_display = (
        "email",
        "full_name",
        "role",
        "account_verified",
        "is_verified",
        "is_active",
        "is_deleted",
        "created_at",
    )
    list_filter = ("role", "account_verified", "is_verified", "is_active", "is_deleted", "country")
    search_fields = ("email", "first_name", "last_name", "user_name", "city")
    ordering = ("-created_at",)
    date_hierarchy = "created_at"
    readonly_fields = ("id", "password", "last_login", "created_at", "updated_at", "deleted_at", "fmc_token")
    raw_id_fields = ("host",)
    inlines = [SubHostInline]
    fieldsets = (
        (None, {"fields": ("id", "email", "password", "role", "host")}),
        (
            "Profile",
            {
                "fields": (
                    "first_name",
                    "last_name",
                    "user_name",
                    "gender",
                    "bio",
                    "avatar",
                    "city",
                    "state",
                    "country",
                    "native_language",
                    "tax",
                )
            },
        ),
        (
            "Emergency contact",
            {"fields": ("emergency_contact_name", "emergency_phone", "emergency_relationship", "emergency_email")},
        ),
        (
            "Status",
            {
                "fields": (
                    "account_verified",
                    "is_verified",
                    "is_active",
                    "is_deleted",
                    "deleted_at",
                    "last_login",
                    "created_at",
                    "updated_at",
                    "fmc_token",
                )
            },
        ),
    )

    @admin.display(description="Name")
    def full_name(self, obj: User) -> str:
        return obj.full_name

    def has_delete_permission(self, request, obj=None) -> bool:
        return False  # accounts are soft-deleted, never dropped while money refers to them


@admin.register(OneTimeCode)
class OneTimeCodeAdmin(admin.ModelAdmin):
    list_display = ("user", "purpose", "created_at", "expires_at", "attempts", "used_at")
    list_filter = ("purpose",)
    search_fields = ("user__email",)
    readonly_fields = ("user", "purpose", "code_hash", "created_at", "expires_at", "attempts", "used_at")

    def has_add_permission(self, request) -> bool:
        return False
