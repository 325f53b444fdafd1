"""Names the dead-code check (vulture, pyproject's [tool.vulture]) must not report, each with its reason.

Reviewed by hand: add a name here only when the code reads it in a way vulture cannot see
(a setting's dotted path, a framework hook, a serializer field, a database column). Dead code
is deleted instead. The file is read by vulture, never imported.
"""

# ruff: noqa: B018, F821

# --- Database columns and choices: kept for the rows, the admin and the migrations ------------------
MALE, FEMALE, OTHER, AVAILABLE_SOON
USERNAME_FIELD, EMAIL_FIELD, REQUIRED_FIELDS, use_in_migrations, abstract
gender, bio, native_language, social_media_links, fmc_token
emergency_contact_name, emergency_phone, emergency_relationship, emergency_email
used_at, cancelled_by, author, last_synced_at, event_count, updated_by, claimed_at, raised_by
created_by, availability, dimension, approved_at, requested_by, reviewed_by, reviewed_at
sort_order, expired_at, gateway_customer_id, gateway_payment_id, paid_by, customer_email, received_at
sequence, duration_ms, last_success_at
_.used_at, _.updated_by, _.expired_at, _.gateway_customer_id, _.gateway_payment_id
_.requested_by, _.reviewed_by, _.reviewed_at
# The search row's columns: written by the triggers of migration listings 0010, filtered by their
# names in lookups (search/rows.py: ``f"{period}_prices__overlap"``, ``closed_days__contains``).
offering_kinds, hourly_prices, daily_prices, weekly_prices, monthly_prices, closed_days

# --- Serializer fields (API names in snake case, `can` flags) and serializer hooks ----------------
approve, reject, decide, suspend, restore, activate, edit, publish, hide, written, duration, photos
notifications, revenue, percentage, benefits, bold, normal, from_, default_error_messages
_.documents_for_list  # read through the documents field's source

# --- Named in settings or urls by dotted path, or called by Django, DRF, Celery, Channels -----------
application  # config/asgi.py and config/wsgi.py
handler400, handler403, handler404, handler500, server_error, bad_request, permission_denied, csrf_failure
api_exception_handler, finish_schema, celery_queues, requires
process_view, view_args  # Django's middleware hook and its positional argument (core/middleware.py)
_._set_schema_to_view  # drf-spectacular's generator calls it (core/parsers._operation_schema keeps the schema alive)
ContentNegotiation, select_parser, select_renderer  # DRF's DEFAULT_CONTENT_NEGOTIATION_CLASS (core/parsers.py)
CompressPagesMiddleware, RequestGuardMiddleware, SearchCacheMiddleware, PostgresEngine
RefusalsOnOneLine, _.exc_text  # a log filter named in LOGGING; the formatter reads exc_text
RevocableJWTScheme, target_class  # drf-spectacular finds its extensions by subclassing
ROOT_URLCONF, LOGGING  # the bench and scale-demo settings modules
_.create_superuser, _.has_perms, _.has_module_perms  # Django's auth backend and createsuperuser
_.base_location, _.base_url  # the storage API
fk_name, can_delete, show_change_link, parameter_name, lookup_allowed, login_form, user_cache  # the Django admin
default_site  # the admin app config names the admin site class (apps/accounts/admin_config.py)
parser_classes, default_code, arg_joiner, output_field  # DRF views and errors, ORM expressions
db_type  # a model field's column type (models.NumericMultiRangeField)
django_get_or_create, skip_postgeneration_save  # factory_boy's Meta
_.MAX_IMAGE_PIXELS  # Pillow's decompression-bomb limit, set on the module
_.log_message, protocol_version, _.daemon_threads  # http.server, in the calendar feed test server
_.session_end, _.push_event  # Channels group message types
mail  # imported for its effect handler's registration (apps/core/apps.py)
app_configs, model_admin, generator, bytes_data, amount_refunded  # parameters of a required signature

# --- Test support, used by the tests of several apps ----------------------------------------------
booking_make, check_role_matrix, _.as_user
AmenityFactory, FacilityFactory, AddOnFactory, FavouriteFactory
registered_counters, unregister_counter  # tests swap the counters they count
decode_limited  # the decompression-bomb test reaches the decoder directly
pending_disputes_count, sees_counter  # the per-role counter tests

# --- Island props and live events (apps/*/islands.py, live_events.py): serializer fields, the schema
# hook named in settings, and the event table the tests' live event check reads ----------------------
widgets, tabs, attribution, tab, markers, zoom
add_contract_components, LIVE_EVENTS
# The declared commands and the socket's registered ones, which a test holds equal
# (apps/dashboard/tests/test_island_props.py).
LIVE_COMMANDS, live_commands
