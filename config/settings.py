# Over 450 lines: the environment is read in this one place.
"""Settings for the marketplace, read from the environment in this one place.

DJANGO_ENV chooses the profile: ``development`` (set by ``make run`` and the Makefile),
``test`` (``make test`` and any pytest run) or ``production`` (passes ``manage.py check --deploy``).
Unset means production: a server started without the variable never runs on a known secret key
or with debug pages; it refuses to start until SECRET_KEY (and the payment keys) are set.
"""

import os
from datetime import timedelta
from decimal import Decimal
from pathlib import Path

import dj_database_url
from django.utils.csp import CSP

from config import instance

BASE_DIR = Path(__file__).resolve().parent.parent
DATA_DIR = Path(os.environ.get("DATA_DIR", BASE_DIR / ".data"))


def env(name: str, default: str = "") -> str:
    return os.environ.get(name, default)


def env_bool(name: str, default: bool = False) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str = "") -> list[str]:
    return [item.strip() for item in env(name, default).split(",") if item.strip()]


# The profile comes from DJANGO_ENV alone (pytest sets it to test: config/pytest_profile.py).
DJANGO_ENV = env("DJANGO_ENV", "production")
if DJANGO_ENV not in ("development", "test", "production"):
    raise RuntimeError(f"DJANGO_ENV must be development, test or production, not {DJANGO_ENV!r}.")
PRODUCTION = DJANGO_ENV == "production"
TESTING = DJANGO_ENV == "test"

DEBUG = env_bool("DEBUG", default=DJANGO_ENV == "development")
SECRET_KEY = env("SECRET_KEY", "" if PRODUCTION else "development-only-secret-key-not-for-production-use-0123456789")
if PRODUCTION and not SECRET_KEY:
    raise RuntimeError(
        "SECRET_KEY must be set in production (DJANGO_ENV unset means production; "
        "use DJANGO_ENV=development for a development machine)."
    )

SITE_URL = env("SITE_URL", "http://127.0.0.1:8000").rstrip("/")
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "127.0.0.1,localhost,testserver")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", SITE_URL)

INSTALLED_APPS = [
    "daphne",
    "apps.accounts.admin_config.AdminConfig",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.contrib.postgres",
    "django.contrib.sitemaps",
    "rest_framework",
    "rest_framework_simplejwt",
    "rest_framework_simplejwt.token_blacklist",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_vite",
    "channels",
    "allauth",
    "allauth.account",
    "apps.core",
    "apps.accounts",
    "apps.premium",
    "apps.listings",
    "apps.bookings",
    "apps.payments",
    "apps.disputes",
    "apps.cms",
    "apps.notifications",
    "apps.messaging",
    "apps.dashboard",
    "apps.statistics",
    "apps.site",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "apps.core.middleware.RequestGuardMiddleware",
    # Anonymous pages gzipped (its docstring says why only those).
    "apps.core.middleware.CompressPagesMiddleware",
    # Anonymous search answers from Redis, before the session, CSRF and authentication layers.
    "apps.listings.search_cache.SearchCacheMiddleware",
    "apps.core.middleware.ContentSecurityPolicyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "allauth.account.middleware.AccountMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.csp",
                "apps.core.context_processors.site",
            ],
        },
    },
]

# --- Data stores -------------------------------------------------------------

DATABASE_URL = env("DATABASE_URL", instance.DEFAULT_DATABASE_URL)
DATABASES = {"default": dj_database_url.parse(DATABASE_URL, conn_max_age=0 if TESTING else 60, conn_health_checks=True)}
# Title search forgives typos through pg_trgm's word similarity; 0.5 (default 0.6) lets "cowrking" find "Coworking".
# JIT off: for these short queries PostgreSQL's JIT compilation costs more than it saves (a search COUNT
# at 100,000 listings took 665 ms with it, of which 400 ms compiling; 160 ms without).
DATABASES["default"].setdefault("OPTIONS", {})["options"] = "-c pg_trgm.word_similarity_threshold=0.5 -c jit=off"
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# The instance's name: every name it shares with others on one Redis (queues, the workers' control
# exchange, the channel layer's prefix, cache keys) derives from it. Unset, the database's name
# (config/instance.py); a worker checks at start that its database is this instance's own
# (apps/core/instances.py).
INSTANCE_NAME = instance.instance_name(testing=TESTING)
# What a worker does when its database belongs to another instance, or another database already
# serves this instance on the same Redis: refuse to start (production, tests) or say so and go on
# (development, where a developer renames databases freely).
INSTANCE_CHECK = env("INSTANCE_CHECK", "warn" if DJANGO_ENV == "development" else "refuse")
if INSTANCE_CHECK not in ("refuse", "warn"):
    raise RuntimeError(f"INSTANCE_CHECK must be refuse or warn, not {INSTANCE_CHECK!r}.")

REDIS_URL = env("REDIS_URL", "redis://127.0.0.1:6379/0")
if TESTING:
    # Each test worker gets a Redis database of its own (TEST_REDIS_DB, then one less per xdist
    # worker), so flushing it between tests never touches the development site's cache and
    # queues or another worker's.
    _worker = int(env("PYTEST_XDIST_WORKER", "gw0").removeprefix("gw") or 0)
    _test_db = int(env("TEST_REDIS_DB", "15")) - _worker
    REDIS_URL = f"{REDIS_URL.rsplit('/', 1)[0] if REDIS_URL.count('/') >= 3 else REDIS_URL}/{_test_db}"

CACHES = {
    "default": {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": REDIS_URL,
        "KEY_PREFIX": env("CACHE_KEY_PREFIX", INSTANCE_NAME),
    }
}

CHANNEL_LAYERS = {
    "default": {
        "BACKEND": "channels_redis.core.RedisChannelLayer",
        # redis-py 8 gives every socket a 5 s read timeout, the same as channels_redis' blocking
        # BZPOPMIN; an idle socket's receive loop then failed with a TimeoutError and closed the
        # websocket (code 1011) after about 5 s. A longer read timeout keeps idle sockets open.
        "CONFIG": {
            "hosts": [{"address": REDIS_URL, "socket_timeout": 30}],
            "prefix": env("CACHE_KEY_PREFIX", INSTANCE_NAME) + ":channels",
        },
    }
}

# --- Background work ---------------------------------------------------------

CELERY_BROKER_URL = env("CELERY_BROKER_URL", REDIS_URL)
CELERY_RESULT_BACKEND = None
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_ALWAYS_EAGER = env_bool("CELERY_TASK_ALWAYS_EAGER", default=TESTING)
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TIMEZONE = "UTC"
# The instance's own queues: the default one (beat's periodic jobs), the outbox's and the calendar
# fetches'; a worker takes them all unless told otherwise (`-Q`, config/instance.py's worker_arguments). Broadcasts (ping,
# inspect, a starting worker's hello) go through the instance's own control exchange.
CELERY_TASK_DEFAULT_QUEUE = INSTANCE_NAME
CELERY_TASK_DEFAULT_EXCHANGE = INSTANCE_NAME
CELERY_TASK_DEFAULT_ROUTING_KEY = INSTANCE_NAME
CELERY_TASK_QUEUES = instance.celery_queues(INSTANCE_NAME)
CELERY_TASK_ROUTES = {
    "core.*": {"queue": instance.effects_queue(INSTANCE_NAME)},
    "bookings.sync_calendar": {"queue": instance.calendars_queue(INSTANCE_NAME)},
}
CELERY_TASK_CREATE_MISSING_QUEUES = False  # a task routed to a queue no worker of this instance reads fails loudly
CELERY_CONTROL_EXCHANGE = INSTANCE_NAME
CELERY_EVENT_EXCHANGE = f"{INSTANCE_NAME}.events"
CELERY_BEAT_SCHEDULE: dict = {}
CELERY_BEAT_SCHEDULE |= {
    # The outbox sweep: retries, and effects whose task was lost (apps/core/effects.py).
    "core-run-due-effects": {"task": "core.run_due_effects", "schedule": 30},
}
CELERY_BEAT_SCHEDULE |= {
    "payments-expire-subscriptions": {"task": "apps.payments.tasks.expire_subscriptions", "schedule": 15 * 60},
    "payments-premium-listings-cleanup": {"task": "apps.payments.tasks.premium_listings_cleanup", "schedule": 60 * 60},
    "payments-expire-unpaid": {"task": "payments.expire_unpaid", "schedule": 5 * 60},
}
CELERY_BEAT_SCHEDULE |= {
    "bookings-expire-requests": {"task": "bookings.expire_requests", "schedule": 5 * 60},
    "bookings-start": {"task": "bookings.start_bookings", "schedule": 5 * 60},
    "bookings-complete": {"task": "bookings.complete_bookings", "schedule": 5 * 60},
    "bookings-reveal-reviews": {"task": "bookings.reveal_reviews", "schedule": 60 * 60},
}
CELERY_BEAT_SCHEDULE |= {
    # Imported calendars: every minute, the feeds that are due (each at least every 10 minutes).
    "bookings-sync-calendars": {"task": "bookings.sync_due_calendars", "schedule": 60},
}
CELERY_BEAT_SCHEDULE |= {
    "statistics-refresh-platform": {"task": "statistics.refresh_platform", "schedule": 5 * 60},
}

# --- Imported calendars ------------------------------------------------------

# Feeds on 127.0.0.1 over plain http, so a host can try an import with a local file server:
# development and tests only; production always refuses loopback and private addresses.
CALENDAR_ALLOW_LOCAL = env_bool("CALENDAR_ALLOW_LOCAL", default=DJANGO_ENV in ("development", "test"))
if PRODUCTION:
    CALENDAR_ALLOW_LOCAL = False

# --- Accounts and authentication --------------------------------------------

AUTH_USER_MODEL = "accounts.User"
AUTHENTICATION_BACKENDS = [
    "django.contrib.auth.backends.ModelBackend",
    "allauth.account.auth_backends.AuthenticationBackend",
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
]
if TESTING:
    PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

ACCOUNT_LOGIN_METHODS = {"email"}
ACCOUNT_SIGNUP_FIELDS = ["email*", "password1*"]
ACCOUNT_USER_MODEL_USERNAME_FIELD = None
ACCOUNT_EMAIL_VERIFICATION = "mandatory"
ACCOUNT_UNIQUE_EMAIL = True

OTP_LENGTH = 5
OTP_VALID_FOR = timedelta(minutes=10)
OTP_MAX_ATTEMPTS = 5
OTP_RESEND_WAIT_SECONDS = 120
# Guessing a 5-digit code: at most this many wrong codes a day per account (all its codes together)
# and per client address (all accounts together); then 429 until the day has passed.
OTP_DAILY_WRONG_PER_ACCOUNT = int(env("OTP_DAILY_WRONG_PER_ACCOUNT", "15"))
OTP_DAILY_WRONG_PER_CLIENT = int(env("OTP_DAILY_WRONG_PER_CLIENT", "50"))
# Failed logins per account (whatever the address): from the 5th on, a delay that doubles from
# 30 seconds up to 15 minutes, and one mail to the owner when the delay starts.
LOGIN_FAILURES_BEFORE_DELAY = int(env("LOGIN_FAILURES_BEFORE_DELAY", "5"))

SIMPLE_JWT = {
    "ACCESS_TOKEN_LIFETIME": timedelta(minutes=int(env("JWT_ACCESS_MINUTES", "60"))),
    "REFRESH_TOKEN_LIFETIME": timedelta(days=int(env("JWT_REFRESH_DAYS", "7"))),
    "ROTATE_REFRESH_TOKENS": True,
    "BLACKLIST_AFTER_ROTATION": True,
    "UPDATE_LAST_LOGIN": True,
    "USER_ID_FIELD": "id",
    "USER_ID_CLAIM": "userId",
    "AUTH_HEADER_TYPES": ("Bearer",),
    "SIGNING_KEY": env("JWT_SIGNING_KEY", SECRET_KEY),
}

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        # Access tokens carry their login and the password they were issued under: refused after
        # logout or a password change.
        "apps.accounts.authentication.RevocableJWTAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_PARSER_CLASSES": [
        "apps.core.parsers.JSONParser",
        "apps.core.parsers.MultiPartParser",
        "apps.core.parsers.FormParser",
    ],
    "DEFAULT_CONTENT_NEGOTIATION_CLASS": "apps.core.parsers.ContentNegotiation",
    # The API takes JSON except where an input has a file: the test client sends what the front end does.
    "TEST_REQUEST_DEFAULT_FORMAT": "json",
    "EXCEPTION_HANDLER": "apps.core.exceptions.api_exception_handler",
    "DEFAULT_SCHEMA_CLASS": "apps.core.schema.AutoSchema",
    "DEFAULT_THROTTLE_RATES": {
        "auth": env("THROTTLE_AUTH", "20/min"),
        "otp": env("THROTTLE_OTP", "10/min"),
        "contact": env("THROTTLE_CONTACT", "5/min"),
        # Chat messages sent over the API, per signed-in user.
        "chat_send": env("THROTTLE_CHAT_SEND", "30/min"),
    },
    "UNAUTHENTICATED_USER": "django.contrib.auth.models.AnonymousUser",
    # How many proxies in front of the site append to X-Forwarded-For (the bundled nginx: 1). With 0
    # the header is ignored and the socket's address is the client (apps.core.clients).
    "NUM_PROXIES": int(env("TRUSTED_PROXY_COUNT", "0")),
}

SPECTACULAR_SETTINGS = {
    "TITLE": "Space marketplace API",
    "DESCRIPTION": (
        "Work spaces and event venues: listings, bookings, payments, disputes, notifications. "
        'Every answer is an envelope: {"message", "data"} on success, {"message", "errors"} on failure.'
    ),
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "COMPONENT_SPLIT_REQUEST": True,
    "SCHEMA_PATH_PREFIX": "/api/",
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        # The islands' props, after the enum hook so their choices stay inline (apps/dashboard/contracts.py).
        "apps.dashboard.contracts.add_contract_components",
        "apps.core.schema.finish_schema",
    ],
    # One named enum per status vocabulary, so generated client types read as the product's words.
    "ENUM_NAME_OVERRIDES": {
        "RoleEnum": "apps.accounts.models.Role",
        "RenterOrHostEnum": [("renter", "renter"), ("host", "host")],
        "DecisionEnum": [("approved", "approved"), ("rejected", "rejected")],
        # Listings, extensions, disputes and identity checks share one review vocabulary.
        "ReviewStatusEnum": "apps.listings.models.ListingStatus",
        "ListingRequestStatusEnum": "apps.listings.models.RequestStatus",
        "BookingStatusEnum": "apps.bookings.models.BookingStatus",
        "PaymentStatusEnum": "apps.payments.models.PaymentStatus",
        "PayoutStatusEnum": "apps.payments.models.PayoutStatus",
        "RefundSourceEnum": "apps.payments.models.Refund.Source",
        "InvoiceKindEnum": "apps.payments.models.InvoiceKind",
        "SubscriptionStatusEnum": "apps.premium.models.SubscriptionStatus",
        "SubscriptionTypeEnum": "apps.premium.models.SubscriptionType",
        "AccountStatusEnum": "apps.accounts.policies.ACCOUNT_STATUSES",
        "OfferingKindEnum": "apps.listings.models.OfferingKind",
        "RequestKindEnum": "apps.listings.models.RequestKind",
        "GenderEnum": "apps.accounts.models.Gender",
        "PeriodEnum": "apps.listings.models.Period",
    },
}

SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_AGE = 60 * 60 * 24 * 7
CSRF_COOKIE_HTTPONLY = False  # the islands read it to send the X-CSRFToken header
CSRF_FAILURE_VIEW = "apps.core.views.csrf_failure"  # JSON under /api, the site's page elsewhere

# --- E-mail ------------------------------------------------------------------

# EMAIL_BACKEND picks the transport: the default writes each mail as a file under .data/mail/
# (read the OTP there); set it to django.core.mail.backends.smtp.EmailBackend with EMAIL_HOST etc.
_email_backend = env(
    "EMAIL_BACKEND",
    "django.core.mail.backends.smtp.EmailBackend" if PRODUCTION else "django.core.mail.backends.filebased.EmailBackend",
)
if _email_backend.endswith("filebased.EmailBackend"):
    _email_options: dict = {"file_path": env("EMAIL_FILE_PATH", str(DATA_DIR / "mail"))}
elif _email_backend.endswith("smtp.EmailBackend"):
    _email_options = {
        "host": env("EMAIL_HOST", "localhost"),
        "port": int(env("EMAIL_PORT", "25")),
        "username": env("EMAIL_HOST_USER") or None,
        "password": env("EMAIL_HOST_PASSWORD") or None,
        "use_tls": env_bool("EMAIL_USE_TLS"),
        "timeout": 10,
    }
else:
    _email_options = {}
MAILERS = {"default": {"BACKEND": _email_backend, "OPTIONS": _email_options}}
DEFAULT_FROM_EMAIL = env("DEFAULT_FROM_EMAIL", "Spacemarket <no-reply@spacemarket.example>")
SERVER_EMAIL = DEFAULT_FROM_EMAIL

# --- Static and uploaded files -----------------------------------------------

STATIC_URL = "/static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
MEDIA_URL = "/uploads/"
MEDIA_ROOT = Path(env("MEDIA_ROOT", str(DATA_DIR / "uploads")))
# Identity documents, dispute evidence and chat attachments: never under MEDIA_ROOT (not public);
# in docker/ a volume every container shares.
PRIVATE_MEDIA_ROOT = Path(env("PRIVATE_MEDIA_ROOT", str(DATA_DIR / "private")))
STORAGES = {
    "default": {"BACKEND": env("FILE_STORAGE", "django.core.files.storage.FileSystemStorage")},
    "staticfiles": {
        "BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"
        if PRODUCTION
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}
if STORAGES["default"]["BACKEND"] == "storages.backends.s3.S3Storage":
    # Public uploads (listing photos, avatars) on S3 behind a CDN (docs/deployment.md); needs boto3.
    AWS_STORAGE_BUCKET_NAME = env("AWS_STORAGE_BUCKET_NAME")
    AWS_S3_REGION_NAME = env("AWS_S3_REGION_NAME") or None
    AWS_S3_CUSTOM_DOMAIN = env("MEDIA_CDN_DOMAIN") or None  # the CDN's host name: public URLs point there
    AWS_QUERYSTRING_AUTH = False  # public files: plain, cacheable URLs
    AWS_DEFAULT_ACL = None  # the bucket's policy decides
    AWS_S3_FILE_OVERWRITE = False
    AWS_S3_OBJECT_PARAMETERS = {"CacheControl": "public, max-age=31536000, immutable"}
FILE_UPLOAD_MAX_MEMORY_SIZE = 5 * 1024 * 1024
DATA_UPLOAD_MAX_MEMORY_SIZE = 12 * 1024 * 1024  # a JSON or form body (without its files)
DATA_UPLOAD_MAX_NUMBER_FIELDS = 1000
DATA_UPLOAD_MAX_NUMBER_FILES = 100
# A whole request body, files included (the proxy's client_max_body_size matches); 413 above.
MAX_REQUEST_BODY_BYTES = 25 * 1024 * 1024
MAX_QUERY_STRING_BYTES = 4096  # 414 above

WHITENOISE_USE_FINDERS = DEBUG or TESTING
WHITENOISE_ALLOW_ALL_ORIGINS = False  # nothing on another origin loads our static files
WEBSOCKET_URL = env("WEBSOCKET_URL", "ws://127.0.0.1:8001/ws/" if not PRODUCTION else "/ws/")

DJANGO_VITE = {
    "default": {
        "dev_mode": env_bool("VITE_DEV_MODE"),
        "dev_server_port": 5173,
        "manifest_path": BASE_DIR / "static" / "dist" / "manifest.json",
        "static_url_prefix": "dist",
    }
}

# --- Locale ------------------------------------------------------------------

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
DISPLAY_TIME_ZONE = "America/New_York"

# The platform's commission on a new listing's bookings, in percent (hosts cannot change it).
LISTING_COMMISSION_PERCENT = Decimal(env("LISTING_COMMISSION_PERCENT", "10"))
# Who answers the public search (apps/listings/search/engine.py): PostgreSQL today; a search engine
# fed from the outbox later is a class of its own named here (docs/deployment.md).
LISTING_SEARCH_ENGINE = env("LISTING_SEARCH_ENGINE", "apps.listings.search.engine.PostgresEngine")

# Map tiles for the listing page, the search map and the listing form's pin (Leaflet). Any server
# speaking the {z}/{x}/{y} scheme; tests point it at a local one.
MAP_TILE_URL = env("MAP_TILE_URL", "https://tile.openstreetmap.org/{z}/{x}/{y}.png")
MAP_TILE_ATTRIBUTION = env(
    "MAP_TILE_ATTRIBUTION", '&copy; <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a> contributors'
)
USE_I18N = True
USE_TZ = True

# --- Payments (used by the payments app) -------------------------------------

STRIPE_SECRET_KEY = env("STRIPE_SECRET_KEY")
STRIPE_WEBHOOK_SECRET = env("STRIPE_WEBHOOK_SECRET")
STRIPE_API_BASE = env("STRIPE_API_BASE")
# Which gateway takes new payments: "stripe" (needs the keys) or "local" (the site's own checkout
# page, no money moves: development, tests and demos). Production defaults to Stripe and refuses to
# start without its keys; a demo says PAYMENT_GATEWAY=local explicitly.
PAYMENT_GATEWAY = env("PAYMENT_GATEWAY", "stripe" if STRIPE_SECRET_KEY or PRODUCTION else "local")
if PAYMENT_GATEWAY not in ("stripe", "local"):
    raise RuntimeError(f"PAYMENT_GATEWAY must be stripe or local, not {PAYMENT_GATEWAY!r}.")
if PRODUCTION and PAYMENT_GATEWAY == "stripe" and not (STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET):
    raise RuntimeError(
        "Payments are not configured: set STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET, "
        "or PAYMENT_GATEWAY=local for a demo where nobody pays."
    )

# --- Browser security headers -------------------------------------------------

# Scripts only from this origin or with the page's nonce (inline scripts carry nonce="{{ csp_nonce }}");
# the analytics tag, loaded after consent, from Google's tag host. Styles may be inline (style
# attributes); images from anywhere over https (map tiles, avatars from storage).
_ANALYTICS = ["https://www.googletagmanager.com", "https://www.google-analytics.com"]
# connect-src also allows the origin of WEBSOCKET_URL, added per response
# (apps.core.middleware.ContentSecurityPolicyMiddleware), so the policy always follows the socket address pages are given.
SECURE_CSP = {
    "default-src": ["'self'"],
    "script-src": ["'self'", CSP.NONCE, *_ANALYTICS],
    "style-src": ["'self'", "'unsafe-inline'"],
    "img-src": ["'self'", "data:", "blob:", "https:"],
    "font-src": ["'self'", "data:"],
    "connect-src": ["'self'", "https://*.google-analytics.com", "https://*.analytics.google.com"],
    "frame-src": ["'self'"],
    "object-src": ["'none'"],
    "base-uri": ["'self'"],
    "form-action": ["'self'", "https://checkout.stripe.com"],
    "frame-ancestors": ["'none'"],
}
if DJANGO_VITE["default"]["dev_mode"]:  # the Vite dev server serves the scripts and its hot-reload socket
    _vite = [f"http://{host}:5173" for host in ("localhost", "127.0.0.1")]
    SECURE_CSP["script-src"] += _vite
    SECURE_CSP["connect-src"] += [*_vite, *(url.replace("http", "ws") for url in _vite)]
PERMISSIONS_POLICY = (
    "accelerometer=(), camera=(), geolocation=(self), gyroscope=(), magnetometer=(), microphone=(), "
    "payment=(self), usb=()"
)

# --- Production hardening (manage.py check --deploy passes) ------------------

if PRODUCTION:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", default=True)
    SECURE_HSTS_SECONDS = int(env("SECURE_HSTS_SECONDS", "31536000"))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_CONTENT_TYPE_NOSNIFF = True
    X_FRAME_OPTIONS = "DENY"

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"refusals_on_one_line": {"()": "apps.core.logging.RefusalsOnOneLine"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "filters": ["refusals_on_one_line"]}},
    "root": {"handlers": ["console"], "level": env("LOG_LEVEL", "WARNING" if TESTING else "INFO")},
}
