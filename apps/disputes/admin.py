from django.contrib import admin

from .models import Dispute, DisputeEvidence


class EvidenceInline(admin.TabularInline):
    model = DisputeEvidence
    extra = 0
    fields = ("name", "content_type", "size", "created_at")
    readonly_fields = fields
    can_delete = False


@admin.register(Dispute)
class DisputeAdmin(admin.ModelAdmin):
    """Read-only here: decisions go through the API so refunds and booking changes happen together."""

    list_display = ("id", "listing", "renter", "host", "status", "refund_amount", "created_at", "decided_at")
    list_filter = ("status",)
    search_fields = ("listing__title", "renter__email", "host__email", "reason")
    list_select_related = ("listing", "renter", "host")
    inlines = [EvidenceInline]
    readonly_fields = [f.name for f in Dispute._meta.fields]

    def has_add_permission(self, request) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False
