"""Serializer base: the API speaks camelCase with ``_id`` while Python keeps snake_case."""

import re
from collections.abc import Mapping
from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from .roles import Role
from .statemachine import history, history_payload


def camelize(name: str) -> str:
    if name == "id":
        return "_id"
    head, *rest = name.split("_")
    return head + "".join(part[:1].upper() + part[1:] for part in rest)


_CAMEL_BOUNDARY = re.compile(r"(?<!^)(?=[A-Z])")


class TextOnlyInput(serializers.Serializer):
    """An input whose text fields take text only. DRF's ``CharField`` (and its regex, e-mail and URL
    kinds) turns a JSON number into text, so ``{"firstName": 5}`` was saved as "5" while the schema
    says ``type: string``: a number, a boolean, a list or an object is refused with the field's
    "invalid" message. A form's values are always text. The schema's ``maxLength`` counts the text
    as sent, before DRF trims its surrounding spaces."""

    def to_internal_value(self, data):
        if isinstance(data, Mapping):
            errors = {}
            for name, field in self.fields.items():
                value = data.get(name)
                if not isinstance(field, serializers.CharField) or field.read_only or value is None:
                    continue
                if not isinstance(value, str):
                    errors[name] = [field.error_messages["invalid"]]
                elif field.max_length is not None and len(value) > field.max_length:
                    errors[name] = [field.error_messages["max_length"].format(max_length=field.max_length)]
            if errors:
                raise serializers.ValidationError(errors)
        return super().to_internal_value(data)


class PlainDecimalField(serializers.DecimalField):
    """A decimal input (money, a percentage, a coordinate) written as a plain decimal: digits with an
    optional point, as the schema's pattern says. Python's ``Decimal`` also reads exponents ("1e2"),
    digit separators ("1_000"), a plus sign and surrounding spaces, which the schema forbids and a
    person reading the request would not take for the amount it is. The field's decimal places and
    digits are then checked as usual; a JSON number is a number and is left to those checks."""

    PLAIN = re.compile(r"-?(?:\d+(?:\.\d*)?|\.\d+)")

    def to_internal_value(self, data):
        if isinstance(data, str) and not self.PLAIN.fullmatch(data):
            self.fail("invalid")
        return super().to_internal_value(data)


def money_input(**kwargs) -> PlainDecimalField:
    """Money as input: dollars and cents (12 digits, 2 decimal places), a plain decimal only."""
    return PlainDecimalField(max_digits=12, decimal_places=2, **kwargs)


class ApiModelSerializer(serializers.ModelSerializer):
    """A ModelSerializer whose model field ``first_name`` appears as ``firstName`` and ``id`` as ``_id``.

    Declared fields keep the name they are declared with, so a serializer can still say
    ``fooBar = serializers.CharField(source="...")`` explicitly.
    """

    def get_fields(self) -> dict[str, Any]:
        fields = super().get_fields()
        renamed: dict[str, Any] = {}
        for name, field in fields.items():
            api_name = camelize(name) if name not in self._declared_fields else name
            if api_name != name and field.source is None:
                field.source = name
            renamed[api_name] = field
        return renamed


class StatusActorSchema(serializers.Serializer):
    """The user who changed a status."""

    _id = serializers.UUIDField()
    firstName = serializers.CharField(allow_blank=True)
    lastName = serializers.CharField(allow_blank=True)
    displayName = serializers.CharField(
        help_text="The name to show: the full name, else the user name, else the e-mail's local part."
    )
    role = serializers.ChoiceField(choices=Role.choices)


class StatusChangeSchema(serializers.Serializer):
    """One entry of ``statusHistory`` on a detail response: who moved the record, when, from, to, why."""

    fromStatus = serializers.CharField(allow_null=True, help_text="Empty for the record's first status.")
    toStatus = serializers.CharField()
    reason = serializers.CharField(allow_blank=True)
    actor = StatusActorSchema(allow_null=True, help_text="Null for the system.")
    createdAt = serializers.DateTimeField()


class WithStatusHistory(serializers.Serializer):
    """Adds ``statusHistory`` (``core.statemachine``'s history rows, oldest first) to a detail
    serializer whose every reader may see it; list ``"statusHistory"`` in the subclass's fields."""

    statusHistory = serializers.SerializerMethodField(
        help_text="Who changed the status, when, from, to and why (oldest first; the actor is null for the system)."
    )

    @extend_schema_field(StatusChangeSchema(many=True))
    def get_statusHistory(self, obj) -> list[dict]:
        return history_payload(history(obj))
