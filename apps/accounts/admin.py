from django import forms
from django.contrib import admin, messages
from django.urls import reverse
from django.utils.html import format_html

from apps.core.exceptions import DomainError

from . import services_users, services_verification
from .models import OneTimeCode, Role, User, VerificationDocument, VerificationRequest, VerificationStatus
from .policies import role_change_refusal


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


class VerificationDocumentInline(admin.TabularInline):
    model = VerificationDocument
    fields = ("name", "content_type", "size", "created_at", "open_link")
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    @admin.display(description="File")
    def open_link(self, obj: VerificationDocument) -> str:
        url = reverse("accounts:verification-doc-file", kwargs={"document_id": obj.pk})
        return format_html('<a href="{}" target="_blank" rel="noopener">open</a>', url)


class UserAdminForm(forms.ModelForm):
    """The admin's user form: a role (and a subHost's host) changes only as ``role_change_refusal`` allows."""

    actor: User | None = None  # set per request by ``UserAdmin.get_form``

    class Meta:
        model = User
        fields = ("role", "host")  # the admin's fieldsets give the rest

    def clean(self):
        cleaned = super().clean()
        if self.instance.pk and {"role", "host"} & set(self.changed_data):
            role = cleaned.get("role", self.instance.role)
            refusal = role_change_refusal(self.actor, self.instance, role, cleaned.get("host"))
            if refusal is not None:
                raise forms.ValidationError(refusal.message)
        return cleaned


@admin.register(User)
class UserAdmin(admin.ModelAdmin):
    """Accounts for staff. Moderators only read them (``MODERATOR_ADMIN``) and use the actions, which
    go through the account services. The admin may also change a role (never its own or another
    admin's, through ``user_role_set``, recorded in the status history), a subHost's host and a
    host's tax. Nobody changes an e-mail here: the owner does, with a code sent to the new address."""

    form = UserAdminForm
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
    readonly_fields = (
        "id",
        "password",
        "last_login",
        "created_at",
        "updated_at",
        "deleted_at",
        "fmc_token",
        # Status changes go through the services (actions below, or the dashboard), never a checkbox.
        "is_verified",
        "is_active",
        "is_deleted",
        "account_verified",
        # A change of e-mail is the owner's, confirmed by a code (an e-mail set here would hand the
        # account, and its password reset, to whoever owns the new address).
        "email",
    )
    actions = ["suspend", "restore", "soft_delete"]
    raw_id_fields = ("host",)
    inlines = [SubHostInline, VerificationDocumentInline]
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

    def get_readonly_fields(self, request, obj=None):
        fields = list(super().get_readonly_fields(request, obj))
        may_change_role = (
            obj is not None and request.user.role == Role.ADMIN and obj.pk != request.user.pk and obj.role != Role.ADMIN
        )
        if not may_change_role:
            fields += ["role", "host"]
        return fields

    def get_form(self, request, obj=None, change=False, **kwargs):
        form = super().get_form(request, obj, change, **kwargs)
        form.actor = request.user  # a class made for this request
        return form

    def save_model(self, request, obj, form, change) -> None:
        if change and {"role", "host"} & set(form.changed_data):
            role, host = obj.role, obj.host
            try:
                services_users.user_role_set(actor=request.user, user=obj, role=role, host=host)
            except DomainError as exc:  # changed meanwhile: nothing is saved
                self.message_user(request, f"{obj}: {exc.message}", messages.ERROR)
                return
        super().save_model(request, obj, form, change)

    def has_add_permission(self, request) -> bool:
        return False  # accounts are invited from the dashboard (hosts, moderators) or register

    def has_delete_permission(self, request, obj=None) -> bool:
        return False  # accounts are soft-deleted, never dropped while money refers to them

    def _set_status(self, request, queryset, status: str) -> None:
        changed = 0
        for user in queryset:
            try:
                services_users.user_status_set(actor=request.user, user=user, status=status)
                changed += 1
            except DomainError as exc:
                self.message_user(request, f"{user}: {exc.message}", messages.WARNING)
        self.message_user(request, f"{changed} account(s) now {status}.")

    @admin.action(description="Suspend selected accounts")
    def suspend(self, request, queryset) -> None:
        self._set_status(request, queryset, "suspended")

    @admin.action(description="Restore selected accounts (active)")
    def restore(self, request, queryset) -> None:
        self._set_status(request, queryset, "active")

    @admin.action(description="Soft-delete selected accounts")
    def soft_delete(self, request, queryset) -> None:
        self._set_status(request, queryset, "deleted")


@admin.register(OneTimeCode)
class OneTimeCodeAdmin(admin.ModelAdmin):
    list_display = ("user", "purpose", "created_at", "expires_at", "attempts", "used_at")
    list_filter = ("purpose",)
    search_fields = ("user__email",)
    # Never the code's hash: five digits are found from it in moments.
    readonly_fields = ("user", "purpose", "created_at", "expires_at", "attempts", "used_at")
    fields = readonly_fields

    def has_add_permission(self, request) -> bool:
        return False


@admin.register(VerificationRequest)
class VerificationRequestAdmin(admin.ModelAdmin):
    """Read-only history of identity checks. Approving goes through the same service as the API;
    rejecting needs a reason, so it is done from the dashboard."""

    list_display = ("user", "status", "created_at", "decided_at", "decided_by", "reject_reason")
    list_filter = ("status", "created_at", "decided_at")
    search_fields = ("user__email", "user__first_name", "user__last_name", "reject_reason")
    date_hierarchy = "created_at"
    list_select_related = ("user", "decided_by")
    readonly_fields = ("user", "status", "created_at", "decided_at", "decided_by", "reject_reason", "documents")
    fields = readonly_fields
    actions = ["approve"]

    def has_add_permission(self, request) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False

    @admin.display(description="Documents")
    def documents(self, obj: VerificationRequest) -> str:
        links = [
            format_html(
                '<a href="{}" target="_blank" rel="noopener">{}</a>',
                reverse("accounts:verification-doc-file", kwargs={"document_id": doc.pk}),
                doc.name,
            )
            for doc in obj.user.verification_documents.all()
        ]
        return format_html("<br>".join(["{}"] * len(links)), *links) if links else "-"

    @admin.action(description="Approve selected pending requests")
    def approve(self, request, queryset) -> None:
        approved = 0
        for item in queryset.filter(status=VerificationStatus.PENDING):
            try:
                services_verification.verification_request_decide(actor=request.user, request=item, status="approved")
                approved += 1
            except DomainError as exc:
                self.message_user(request, f"{item.user}: {exc.message}", messages.WARNING)
        self.message_user(request, f"{approved} request(s) approved.")


@admin.register(VerificationDocument)
class VerificationDocumentAdmin(admin.ModelAdmin):
    list_display = ("name", "user", "content_type", "size", "created_at")
    list_filter = ("content_type", "created_at")
    search_fields = ("name", "user__email")
    list_select_related = ("user",)
    readonly_fields = ("user", "name", "content_type", "size", "created_at", "open_link")
    fields = readonly_fields

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    @admin.display(description="File")
    def open_link(self, obj: VerificationDocument) -> str:
        return VerificationDocumentInline.open_link(None, obj)
