"""Precomputed platform statistics: the admin dashboard's heavy answers, refreshed by Celery beat."""

from django.core.serializers.json import DjangoJSONEncoder
from django.db import models


class PlatformSnapshot(models.Model):
    """One platform-wide answer (already serialized) of a dashboard call, by call and period.

    ``key`` names the call, its arguments and the first day of its period (for example
    ``property-statistics:week:2026-11-22``), so a new week or year never reads last period's row.
    """

    key = models.CharField(primary_key=True, max_length=120)
    data = models.JSONField(encoder=DjangoJSONEncoder)
    computed_at = models.DateTimeField()
    duration_ms = models.PositiveIntegerField(default=0, help_text="How long the computation took.")

    class Meta:
        ordering = ["key"]

    def __str__(self) -> str:
        return f"{self.key} at {self.computed_at:%Y-%m-%d %H:%M}"
