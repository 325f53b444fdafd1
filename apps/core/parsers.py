"""Request body parsers: DRF's, with the limits every API body shares.

- A JSON or form body larger than ``DATA_UPLOAD_MAX_MEMORY_SIZE`` answers 413; more than
  ``DATA_UPLOAD_MAX_NUMBER_FIELDS`` fields or ``DATA_UPLOAD_MAX_NUMBER_FILES`` files 400.
- JSON nested deeper than ``MAX_JSON_DEPTH`` answers 400 (Python's parser would run out of stack).
- A NUL character in any text answers 400: PostgreSQL cannot store one, and no field needs it.
- A multipart body with content but no named part answers 400 (Django's parser skips a part without
  a ``Content-Disposition`` name): it is not read as an empty form.
- A form (url-encoded or multipart) sent to an operation that takes JSON only answers 415: only an
  operation whose input has a file reads forms (``ContentNegotiation``); the schema lists the same
  content types (``apps.core.schema.AutoSchema.map_parsers``).
"""

from functools import lru_cache

from django.conf import settings
from django.core.exceptions import RequestDataTooBig, SuspiciousOperation
from django.utils.http import parse_header_parameters
from rest_framework import negotiation, parsers, serializers
from rest_framework.exceptions import APIException, NotAcceptable, ParseError, ValidationError
from rest_framework.utils.mediatypes import media_type_matches

MAX_JSON_DEPTH = 64


class PayloadTooLarge(APIException):
    status_code = 413
    default_detail = "The request is too large."
    default_code = "payload_too_large"


def _too_large(limit: int) -> PayloadTooLarge:
    return PayloadTooLarge(f"The request is too large: at most {limit // (1024 * 1024)} MB.")


def _check_length(parser_context, limit: int) -> None:
    request = (parser_context or {}).get("request")
    if request is None:
        return
    try:
        length = int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        length = 0
    if length > limit:
        raise _too_large(limit)


def _suspicious(exc: SuspiciousOperation) -> APIException:
    if isinstance(exc, RequestDataTooBig):
        return _too_large(settings.DATA_UPLOAD_MAX_MEMORY_SIZE)
    return ParseError(
        f"The request has too many fields or files (at most {settings.DATA_UPLOAD_MAX_NUMBER_FIELDS} fields "
        f"and {settings.DATA_UPLOAD_MAX_NUMBER_FILES} files)."
    )


def _nul(field: str) -> ValidationError:
    """400 on the field (its top-level name) that holds a NUL character."""
    name = field.replace("\x00", "") or "non_field_errors"
    return ValidationError({name: [f"{name} must not contain a NUL character."]})


def refuse_nul_and_depth(data) -> None:
    """Walk the parsed body without recursion; refuse NUL characters and excessive nesting."""
    stack = [(data, 1, "")]
    while stack:
        value, depth, field = stack.pop()
        if depth > MAX_JSON_DEPTH:
            raise ParseError(f"The request body is nested too deeply (at most {MAX_JSON_DEPTH} levels).")
        if isinstance(value, str):
            if "\x00" in value:
                raise _nul(field)
        elif isinstance(value, dict):
            for key, item in value.items():
                if "\x00" in str(key):
                    raise _nul(field or str(key))
                stack.append((item, depth + 1, field or str(key)))
        elif isinstance(value, list):
            stack.extend((item, depth + 1, field) for item in value)


def _refuse_nul_in_fields(query_dict) -> None:
    for key, values in query_dict.lists():
        if "\x00" in key or any(isinstance(value, str) and "\x00" in value for value in values):
            raise _nul(key)


class JSONParser(parsers.JSONParser):
    def parse(self, stream, media_type=None, parser_context=None):
        _check_length(parser_context, settings.DATA_UPLOAD_MAX_MEMORY_SIZE)
        try:
            data = super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise ParseError(f"The request body is nested too deeply (at most {MAX_JSON_DEPTH} levels).") from None
        refuse_nul_and_depth(data)
        return data


class FormParser(parsers.FormParser):
    def parse(self, stream, media_type=None, parser_context=None):
        _check_length(parser_context, settings.DATA_UPLOAD_MAX_MEMORY_SIZE)
        try:
            data = super().parse(stream, media_type, parser_context)
        except SuspiciousOperation as exc:
            raise _suspicious(exc) from None
        _refuse_nul_in_fields(data)
        return data


class _HeadRecorder:
    """A stream that keeps the first bytes read from it."""

    KEEP = 1024

    def __init__(self, stream):
        self.stream = stream
        self.head = b""

    def read(self, *args):
        chunk = self.stream.read(*args)
        if len(self.head) < self.KEEP:
            self.head += chunk[: self.KEEP - len(self.head)]
        return chunk


class MultiPartParser(parsers.MultiPartParser):
    def parse(self, stream, media_type=None, parser_context=None):
        _check_length(parser_context, settings.MAX_REQUEST_BODY_BYTES)
        recorder = _HeadRecorder(stream)
        try:
            result = super().parse(recorder, media_type, parser_context)
        except SuspiciousOperation as exc:
            raise _suspicious(exc) from None
        if not result.data and not result.files:
            boundary = parse_header_parameters(media_type or "")[1].get("boundary", "")
            if recorder.head.strip() not in (b"", f"--{boundary}--".encode("latin-1", "replace")):
                raise ParseError("The form has a part with no name (Content-Disposition).")
        _refuse_nul_in_fields(result.data)
        return result


# --- Which operations read forms --------------------------------------------------------------------

FORM_MEDIA_TYPES = frozenset({"application/x-www-form-urlencoded", "multipart/form-data"})


class JsonOnly(APIException):
    status_code = 415
    default_detail = "This request takes a JSON body: send it with Content-Type: application/json."
    default_code = "json_only"


def _has_file_field(serializer) -> bool:
    stack = [serializer]
    while stack:
        field = stack.pop()
        if isinstance(field, serializers.FileField):
            return True
        if isinstance(field, (serializers.ListSerializer, serializers.ListField, serializers.DictField)):
            stack.append(field.child)
        elif isinstance(field, serializers.Serializer):
            stack.extend(field.fields.values())
    return False


def takes_json_only(declared) -> bool:
    """Whether an operation whose declared input (``@extend_schema(request=...)`` or the view's
    serializer, as the schema reads it) is ``declared`` takes JSON only: a form can carry a file but
    not the nested values, lists and types of a JSON body, so only an input with a file reads forms.
    Content types named in the declaration are kept as named."""
    if isinstance(declared, dict):
        return not FORM_MEDIA_TYPES.intersection(declared)
    if isinstance(declared, type) and issubclass(declared, serializers.Field):
        declared = declared()
    if isinstance(declared, serializers.Field):
        return not _has_file_field(declared)
    return False


def _operation_schema(view_func, method: str):
    from drf_spectacular.generators import SchemaGenerator

    def keep_schema(view, schema) -> None:  # the generator's own keeps only a weak reference
        view.schema, schema.view = schema, view

    generator = SchemaGenerator()
    generator._set_schema_to_view = keep_schema  # type: ignore[method-assign] # a strong reference while asked
    view = generator.create_view(view_func, method)
    schema = view.schema
    schema.method = method
    return schema


@lru_cache(maxsize=1024)
def operation_input(view_func, method: str):
    """The operation's declared input as the schema reads it (None for none), from the same
    declarations (``@extend_schema(request=...)``, a view's ``delete_body``), so the two cannot disagree."""
    return _operation_schema(view_func, method).get_request_serializer()


@lru_cache(maxsize=1024)
def operation_answer_types(view_func, method: str) -> frozenset[str]:
    """The content types the operation's schema declares for its answers besides JSON (a PDF, an
    image, a calendar): ``@extend_schema(responses={(200, "application/pdf"): ...})``."""
    responses = _operation_schema(view_func, method).get_response_serializers()
    if not isinstance(responses, dict):
        return frozenset()
    return frozenset(key[1] for key in responses if isinstance(key, tuple) and len(key) == 2)


def _view_func(request):
    match = getattr(getattr(request, "_request", None), "resolver_match", None)
    view_func = getattr(match, "func", None)
    return view_func if getattr(view_func, "cls", None) is not None else None


class ContentNegotiation(negotiation.DefaultContentNegotiation):
    """DRF's negotiation, which reads a form only for an operation that takes one (``takes_json_only``):
    elsewhere a form body answers 415 instead of being read as a form whose values go missing. An
    ``Accept`` naming a type the operation declares for its answer (a PDF invoice, a calendar feed) is
    served, not a 406: the view sends the file itself, and an error still comes in the JSON envelope."""

    def select_renderer(self, request, renderers, format_suffix=None):
        try:
            return super().select_renderer(request, renderers, format_suffix)
        except NotAcceptable:
            view_func = _view_func(request)
            declared = operation_answer_types(view_func, request.method) if view_func else frozenset()
            accepted = [token.split(";")[0].strip() for token in request.META.get("HTTP_ACCEPT", "").split(",")]
            if not any(media_type_matches(kind, wanted) for kind in declared for wanted in accepted):
                raise
            return renderers[0], renderers[0].media_type

    def select_parser(self, request, parsers):
        view_func = _view_func(request)
        if view_func is None or not takes_json_only(operation_input(view_func, request.method)):
            return super().select_parser(request, parsers)
        parser = super().select_parser(request, [p for p in parsers if p.media_type not in FORM_MEDIA_TYPES])
        if parser is None:
            raise JsonOnly()
        return parser
