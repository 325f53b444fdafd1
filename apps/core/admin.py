from django.contrib import admin, messages

from .effects import STUCK_AFTER, effect_retry, stuck_effects
from .models import Effect, EffectStatus, StatusChange
from .roles import MONEY_HISTORIES


class StuckFilter(admin.SimpleListFilter):
    title = "needs attention"
    parameter_name = "stuck"

    def lookups(self, request, model_admin):
        return [("yes", f"Stuck (failed {STUCK_AFTER}+ times or stopped)")]

    def queryset(self, request, queryset):
        if self.value() == "yes":
            return queryset.filter(pk__in=stuck_effects().values("pk"))
        return queryset


@admin.register(Effect)
class EffectAdmin(admin.ModelAdmin):
    """Effects that must happen (captures, refunds, transfers, mail, push, live events): staff see
    the ones that keep failing and can try them again."""

    list_display = ("kind", "status", "attempts", "next_attempt_at", "short_error", "created_at", "done_at")
    list_filter = (StuckFilter, "status", "kind")
    search_fields = ("key", "kind", "last_error")
    readonly_fields = [f.name for f in Effect._meta.fields]
    actions = ["retry_now"]
    ordering = ("-created_at",)

    @admin.display(description="last error")
    def short_error(self, obj: Effect) -> str:
        return obj.last_error[:120]

    def has_add_permission(self, request) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False

    @admin.action(description="Try the selected effects again now")
    def retry_now(self, request, queryset):
        count = 0
        for effect in queryset.exclude(status=EffectStatus.DONE):
            effect_retry(effect_id=effect.pk)
            count += 1
        self.message_user(request, f"{count} effect(s) queued again.", messages.SUCCESS)


@admin.register(StatusChange)
class StatusChangeAdmin(admin.ModelAdmin):
    list_display = ("machine", "object_id", "from_status", "to_status", "actor", "reason", "created_at")
    list_filter = ("machine", "to_status")
    search_fields = ("object_id", "reason")
    readonly_fields = [f.name for f in StatusChange._meta.fields]

    def get_queryset(self, request):
        queryset = super().get_queryset(request)
        if not request.user.is_superuser:  # a moderator reads no money's history
            queryset = queryset.exclude(machine__in=MONEY_HISTORIES)
        return queryset

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False  # history is written by the transition helper, never edited

    def has_delete_permission(self, request, obj=None) -> bool:
        return False
