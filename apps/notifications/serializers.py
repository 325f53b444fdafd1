from rest_framework import serializers

from .counters import COUNTER_NAMES


class NotificationSerializer(serializers.Serializer):
    """The shape of ``services.notification_payload`` (the views use that function; this documents it)."""

    _id = serializers.UUIDField()
    content = serializers.CharField()
    type = serializers.CharField()
    kind = serializers.CharField()
    link = serializers.CharField()
    read = serializers.BooleanField()
    seen = serializers.BooleanField()
    createdAt = serializers.DateTimeField()


class NotificationListSerializer(serializers.Serializer):
    notifications = NotificationSerializer(many=True)
    totalUnread = serializers.IntegerField()
    totalCount = serializers.IntegerField()
    page = serializers.IntegerField()
    limit = serializers.IntegerField()
    totalPages = serializers.IntegerField()


class NotificationStateSerializer(serializers.Serializer):
    notification = NotificationSerializer()
    totalUnread = serializers.IntegerField()


class MarkAllSerializer(serializers.Serializer):
    updated = serializers.IntegerField()
    totalUnread = serializers.IntegerField()


class NotificationUpdateInput(serializers.Serializer):
    read = serializers.BooleanField(required=False)
    seen = serializers.BooleanField(required=False)

    def validate(self, attrs):
        if not attrs:
            raise serializers.ValidationError({"read": ["Send read or seen (true or false)."]})
        return attrs


PendingCounterSerializer = type(
    "PendingCounterSerializer",
    (serializers.Serializer,),
    {name: serializers.IntegerField() for name in COUNTER_NAMES},
)


class PushKeysInput(serializers.Serializer):
    p256dh = serializers.CharField(max_length=200)
    auth = serializers.CharField(max_length=100)


class PushSubscribeInput(serializers.Serializer):
    """What ``PushSubscription.toJSON()`` gives in the browser."""

    endpoint = serializers.URLField(max_length=1000)
    keys = PushKeysInput()
    expirationTime = serializers.IntegerField(required=False, allow_null=True)


class PushUnsubscribeInput(serializers.Serializer):
    endpoint = serializers.URLField(max_length=1000)


class PushPublicKeySerializer(serializers.Serializer):
    publicKey = serializers.CharField()


class PushSubscriptionSerializer(serializers.Serializer):
    _id = serializers.UUIDField()
    endpoint = serializers.CharField()
    createdAt = serializers.DateTimeField()
