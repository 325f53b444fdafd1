"""The back office's view of the outbox: effects that keep failing, and "try again" (admin only)."""

from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_field
from rest_framework import serializers
from rest_framework.views import APIView

from .api import ERROR_ENVELOPE, envelope, enveloped, enveloped_page, page_response, paginate
from .effects import effect_retry, stuck_effects
from .exceptions import NotFound
from .models import Effect
from .permissions import AdminOnly

ERRORS = {401: ERROR_ENVELOPE, 403: ERROR_ENVELOPE, 404: ERROR_ENVELOPE}


@extend_schema_field(
    {
        "type": "object",
        "additionalProperties": True,
        "description": "The handler's arguments (ids, amounts), as the effect's kind reads them.",
    }
)
class EffectPayloadField(serializers.JSONField):
    """An effect's arguments: their names depend on its kind (payments.capture, notifications.mail...)."""


class EffectSerializer(serializers.ModelSerializer):
    _id = serializers.UUIDField(source="id", read_only=True)
    payload = EffectPayloadField(read_only=True)
    nextAttemptAt = serializers.DateTimeField(source="next_attempt_at")
    lastError = serializers.CharField(source="last_error")
    createdAt = serializers.DateTimeField(source="created_at")
    doneAt = serializers.DateTimeField(source="done_at", allow_null=True)

    class Meta:
        model = Effect
        fields = [
            "_id",
            "kind",
            "key",
            "payload",
            "status",
            "attempts",
            "nextAttemptAt",
            "lastError",
            "createdAt",
            "doneAt",
        ]
        read_only_fields = fields


class EffectListView(APIView):
    """Admin: effects that failed at least three times or stopped retrying (``filters[status]=all``
    lists every effect, newest first)."""

    permission_classes = [AdminOnly]

    @extend_schema(
        parameters=[
            OpenApiParameter("filters[status]", str, description="stuck (default), pending, done, failed, all")
        ],
        responses={200: enveloped_page("EffectList", "effects", EffectSerializer), **ERRORS},
    )
    def get(self, request):
        status = request.query_params.get("filters[status]", "stuck")
        if status == "stuck":
            queryset = stuck_effects()
        elif status == "all":
            queryset = Effect.objects.all()
        else:
            queryset = Effect.objects.filter(status=status[:10])
        return page_response(paginate(request, queryset.order_by("-created_at")), EffectSerializer, "effects")


class EffectRetryView(APIView):
    permission_classes = [AdminOnly]

    @extend_schema(request=None, responses={200: enveloped("EffectRetried", EffectSerializer()), **ERRORS})
    def post(self, request, id):
        if not Effect.objects.filter(pk=id).exists():
            raise NotFound("Effect not found.")
        effect = effect_retry(effect_id=id)
        return envelope(EffectSerializer(effect).data, "The effect was queued again.")
