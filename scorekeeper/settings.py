"""Settings for scorekeeper.

Development works with no environment at all (SQLite in the checkout, Celery tasks run
eagerly in the web process). Everything else comes from environment variables, read by the
helpers of ``scorekeeper.env``, which reject a malformed value with ImproperlyConfigured
naming the variable instead of guessing. An empty variable counts as unset. The settings
read top to bottom: the basics, the database, the pages, the API, the background tasks,
then production's hardening, the caches and the live table, logins, mail, limits and logs.
"""

from datetime import timedelta
from pathlib import Path

from django.core.exceptions import ImproperlyConfigured

from scorekeeper.env import (
    BROKER_SCHEMES,
    env_bool,
    env_database,
    env_int,
    env_list,
    env_origin,
    env_rate,
    env_required,
    env_str,
    env_url,
    origin_host,
)
from scorekeeper.hosts import PRIVATE_NETWORK

BASE_DIR = Path(__file__).resolve().parent.parent

DEBUG = env_bool("DEBUG", default=True)

if DEBUG:
    SECRET_KEY = env_str("SECRET_KEY") or "django-insecure-development-only-never-in-production"
else:
    SECRET_KEY = env_required("SECRET_KEY", "when DEBUG is false")

# In development with ALLOWED_HOSTS unset, this computer and the local network's addresses
# (a phone on the same Wi-Fi: scorekeeper/hosts.py); in production, only the hosts named.
ALLOWED_HOSTS: list[str] = env_list(
    "ALLOWED_HOSTS", default=["localhost", "127.0.0.1", "[::1]", PRIVATE_NETWORK] if DEBUG else []
)
if not ALLOWED_HOSTS:
    # Django would answer every request with 400; say so at start-up instead.
    raise ImproperlyConfigured("ALLOWED_HOSTS must be set when DEBUG is false.")

# The origin of every link handed to a phone (seat and invite links, their QR codes:
# games.lib.public_url), such as https://cards.example.org; unset, the address the request
# came to. A link handed out must be answered, so its host is allowed (and its origin
# trusted by the CSRF check, below).
SITE_URL = env_origin("SITE_URL")
if SITE_URL is not None and origin_host(SITE_URL) not in ALLOWED_HOSTS:
    ALLOWED_HOSTS.append(origin_host(SITE_URL))
# This computer's address on the local network, as `make run` finds it
# (scripts/lan_url.py): links asked for at a loopback address (127.0.0.1, localhost),
# which no phone can open, use it instead.
LAN_URL = env_origin("LAN_URL")

INSTALLED_APPS = [
    # First, so that `runserver` serves the ASGI application (WebSockets included).
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    # Its system checks (settings in the django-csp 4 format); scorekeeper.csp the header.
    "csp",
    # Login lock-out (games.lib.lockout): its failed-login rows and admin pages.
    "axes",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "channels",
    "games",
]

MIDDLEWARE = [
    # /healthz answers first, before the host check and the HTTPS redirect, so a load
    # balancer or Docker can probe it over plain HTTP by any address (games.lib.health);
    # then one JSON log line per request (scorekeeper.logging).
    "games.lib.health.HealthCheckMiddleware",
    "scorekeeper.logging.RequestLogMiddleware",
    # A request that waited longer than REQUEST_QUEUE_LIMIT behind the proxy (its
    # X-Request-Start) is turned away with 503 and Retry-After before any work (games.lib.busy).
    "games.lib.busy.QueueLimitMiddleware",
    # Text answers gzip-compressed when the browser asks, after everything else has
    # written them (games.lib.compress).
    "games.lib.compress.TextGZipMiddleware",
    "django.middleware.security.SecurityMiddleware",
    # The Content-Security-Policy header (django-csp, with scorekeeper.csp's additions).
    "scorekeeper.csp.ContentSecurityPolicyMiddleware",
    # The static files, before anything reads a session.
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # A body over DATA_UPLOAD_MAX_MEMORY_SIZE answers 413 before anything reads it, in the
    # API's error shape on /api/ (games.api.limits).
    "games.api.limits.BodyLimitMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # The language: the cookie set by the switcher, then Accept-Language (after sessions,
    # before CommonMiddleware); a signed-in user's stored choice wins (games.languages).
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "games.languages.UserLanguageMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # Turns a locked-out login into its 429 answer (django-axes; games.lib.lockout).
    "axes.middleware.AxesMiddleware",
    # A view failing because the database does not answer gives 503 and Retry-After
    # rather than a bare 500 (games.lib.outage, which also covers the middlewares above).
    "games.lib.outage.DatabaseUnavailableMiddleware",
]

ROOT_URLCONF = "scorekeeper.urls"

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
                "games.web.script_strings.script_strings",
                "games.live.socket_url.live_socket",
                "games.web.language.languages",
            ],
        },
    },
]

WSGI_APPLICATION = "scorekeeper.wsgi.application"

DATABASES = {
    "default": env_database(
        "DATABASE_URL",
        default={"ENGINE": "django.db.backends.sqlite3", "NAME": BASE_DIR / "db.sqlite3"},
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Several phones (or server processes) write at once: take the write lock when a
    # transaction begins and wait for it, instead of failing with "database is locked".
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {"transaction_mode": "IMMEDIATE", "timeout": 20, "init_command": "PRAGMA journal_mode=WAL;"}
    )

if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # A database that does not answer (restarting, unreachable) fails a request in
    # seconds instead of holding a web worker until the operating system gives up: the
    # connection's own attempt, and the wait for the pool to hand one out.
    _options = DATABASES["default"].setdefault("OPTIONS", {})
    _options.setdefault("connect_timeout", env_int("DATABASE_CONNECT_TIMEOUT", default=5))
    if isinstance(_options.get("pool"), dict):
        _options["pool"].setdefault("timeout", _options["connect_timeout"])

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# The pages and the PDFs in English (the default) or Vietnamese: the signed-in user's
# choice, else the language cookie, else the browser's Accept-Language (docs/pages.md).
LANGUAGE_CODE = "en"
# Each language is named in itself, as the switcher shows it. The Chinese codes are
# Django's (zh-hans, zh-hant); their catalogues live in locale/zh_Hans and locale/zh_Hant.
LANGUAGES = [
    ("en", "English"),
    ("vi", "Tiếng Việt"),
    ("zh-hans", "简体中文"),
    ("zh-hant", "繁體中文"),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
# Where `collectstatic` writes and the production server reads the static files from.
STATIC_ROOT = Path(env_str("STATIC_ROOT") or BASE_DIR / "staticfiles")
if not STATIC_ROOT.is_absolute():
    raise ImproperlyConfigured(f"STATIC_ROOT={str(STATIC_ROOT)!r} must be an absolute path.")

# The table-side pages (games/web/): Django's own sign-in and sign-out views, whose pages
# are templates/web/login.html; signing in leads to the user's groups.
LOGIN_URL = "web:login"
LOGIN_REDIRECT_URL = "web:groups"
LOGOUT_REDIRECT_URL = "web:login"

# Rendered PDFs (games.Document) are stored here through Django's default storage and are
# served only by the API's authenticated download view, never as public media URLs. A
# worker must see the same directory as the web process.
MEDIA_ROOT = Path(env_str("MEDIA_ROOT") or BASE_DIR / "media")
if not MEDIA_ROOT.is_absolute():
    raise ImproperlyConfigured(f"MEDIA_ROOT={str(MEDIA_ROOT)!r} must be an absolute path.")

SESSION_COOKIE_SECURE = not DEBUG
CSRF_COOKIE_SECURE = not DEBUG

REST_FRAMEWORK = {
    "DEFAULT_RENDERER_CLASSES": [
        "rest_framework.renderers.JSONRenderer",
        "rest_framework.renderers.BrowsableAPIRenderer",
    ],
    # `Authorization: Token KEY` reads a device token, kept as the SHA-256 of its key
    # (games.models.accounts, games.api.tokens; docs/api.md).
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "games.api.authentication.DeviceTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.PageNumberPagination",
    "PAGE_SIZE": 50,
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    "DEFAULT_SCHEMA_CLASS": "games.api.schema.ServiceSchema",
    "EXCEPTION_HANDLER": "games.api.errors.api_exception_handler",
    # JSON nested deeper than API_JSON_MAX_DEPTH is refused with 400 (games.api.parsers).
    "DEFAULT_PARSER_CLASSES": [
        "games.api.parsers.JSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
}
# Levels of lists and objects a JSON body may nest: a deal needs 4, a group's export ~8.
API_JSON_MAX_DEPTH = 32

# The interactive docs load Swagger UI from drf-spectacular-sidecar's static files, so
# /api/docs/ works without reaching a CDN.
SPECTACULAR_SETTINGS = {
    "TITLE": "Scorekeeper API",
    "DESCRIPTION": "Groups, sessions and deals of home card games, scored by the engine.",
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # The API is JSON: the form parsers serve the browsable API's HTML forms only, so the
    # schema names JSON bodies (the group import names its upload itself).
    "PARSER_WHITELIST": ["games.api.parsers.JSONParser"],
}

# Without a broker, tasks run inline in the calling process and their errors propagate, so
# development and the default test run need no Redis. The memory transport keeps anything
# that does reach for a broker from trying the default AMQP address.
CELERY_BROKER_URL = env_url("CELERY_BROKER_URL", BROKER_SCHEMES)
CELERY_TASK_ALWAYS_EAGER = CELERY_BROKER_URL is None
CELERY_TASK_EAGER_PROPAGATES = CELERY_BROKER_URL is None
if CELERY_BROKER_URL is None:
    CELERY_BROKER_URL = "memory://"
CELERY_TASK_IGNORE_RESULT = True

# --- Production deployment (docs/operations.md) ------------------------------------------
# Everything below is read from the environment and changes nothing in development (no
# environment): tests and `make run` need no collectstatic and no Redis. With DEBUG off,
# `manage.py check --deploy --fail-level WARNING` passes on the defaults.

STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    # Hashed, compressed files need `collectstatic` first: production only.
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "scorekeeper.staticfiles.GzipManifestStaticFilesStorage"
    },
}
# Only the hashed names are ever linked; the originals would double the work and the disk.
WHITENOISE_KEEP_ONLY_HASHED_FILES = True

# Behind a proxy that terminates TLS, set SECURE_PROXY_SSL_HEADER=1: the proxy must then
# set X-Forwarded-Proto (and overwrite any the client sent).
if env_bool("SECURE_PROXY_SSL_HEADER", default=False):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", default=not DEBUG)
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", default=0 if DEBUG else 31_536_000)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", default=not DEBUG)
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", default=not DEBUG)
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
SESSION_COOKIE_HTTPONLY = True
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", default=[])
# SITE_URL's pages post from its origin, which a proxy that ends TLS without telling Django
# (SECURE_PROXY_SSL_HEADER) would otherwise make a cross-origin post.
if SITE_URL is not None and SITE_URL not in CSRF_TRUSTED_ORIGINS:
    CSRF_TRUSTED_ORIGINS.append(SITE_URL)

# The client's address for the login lock-out and request logs: REMOTE_ADDR, or, behind a
# proxy that appends to X-Forwarded-For, the last address of that header.
TRUST_X_FORWARDED_FOR = env_bool("TRUST_X_FORWARDED_FOR", default=False)

# The cache counts the calculators' calls and the account forms' posts: Redis (CACHE_URL,
# else REDIS_URL) so that every web process shares the counts; local memory, per process,
# otherwise. While Redis does not answer, each process counts in its own memory
# (games.lib.limits_cache) rather than letting every call through. (Failed logins are
# counted in the database.)
CACHE_URL = env_url("CACHE_URL", frozenset({"redis", "rediss"})) or env_url(
    "REDIS_URL", frozenset({"redis", "rediss"})
)
CACHES = {
    "default": {
        "BACKEND": "games.lib.limits_cache.LimitsCache",
        "LOCATION": CACHE_URL,
        "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1},
    }
    if CACHE_URL
    else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
}
# Live updates (games.live.push, games.live.consumers): every ASGI process hears every other's
# through Redis (CHANNEL_LAYER_URL, else REDIS_URL); without either, one process's memory,
# which is all `make run` (one runserver process) needs.
CHANNEL_LAYER_URL = env_url("CHANNEL_LAYER_URL", frozenset({"redis", "rediss"})) or env_url(
    "REDIS_URL", frozenset({"redis", "rediss"})
)
CHANNEL_LAYERS = {
    "default": {
        "BACKEND": "channels_redis.core.RedisChannelLayer",
        # redis-py 8 gives every socket a 5 s read timeout, and channels-redis waits 5 s
        # for a socket's next message (BZPOPMIN): an idle socket's wait then ends in a
        # TimeoutError that closes it, and a message popped just then is lost
        # (tests/live/test_redis_layer.py). Reads may take longer than that wait.
        # ``capacity``: all the sockets one process holds share one queue in Redis, and an
        # announcement sent to a full queue is dropped (logged at INFO only). The default
        # (100) dropped a burst of 50 tables' announcements to one Daphne process
        # (benchmarks/live_table.py); each waiting announcement is about a kilobyte.
        "CONFIG": {
            "hosts": [{"address": CHANNEL_LAYER_URL, "socket_timeout": 15}],
            "prefix": "scorekeeper",
            "capacity": env_int("CHANNEL_LAYER_CAPACITY", default=2000, minimum=1),
        },
    }
    if CHANNEL_LAYER_URL
    else {"BACKEND": "channels.layers.InMemoryChannelLayer"}
}
ASGI_APPLICATION = "scorekeeper.asgi.application"
# HTTP requests one ASGI process runs at once, each in a thread with its own database
# connection (games.lib.asgi_limit); the others wait their turn.
ASGI_MAX_REQUESTS = env_int("ASGI_MAX_REQUESTS", default=10, minimum=1)
# Seconds a request may wait for one of them before it is answered 503 with Retry-After,
# so the phone sends it again later (games.lib.busy); 0 waits for ever.
ASGI_MAX_WAIT = env_int("ASGI_MAX_WAIT", default=10)
# Behind a proxy that sets X-Request-Start (nginx: "t=${msec}"): seconds a request may
# have waited for a web worker before it is answered the same way; 0 (the default) is off.
REQUEST_QUEUE_LIMIT = env_int("REQUEST_QUEUE_LIMIT", default=0)
# The pages register the service worker that keeps them for offline use (games/web/app.py);
# OFFLINE_APP=0 leaves it out (docs/pages.md, "An app on the phone").
OFFLINE_APP = env_bool("OFFLINE_APP", default=True)
# Where the pages open their WebSocket (games.live.socket_url): empty for the page's own origin
# (``/ws/...`` on the server that sent the page, as `make run` and Daphne alone serve it);
# otherwise a ws:// or wss:// origin in which ``{host}`` stands for the host name the page
# was asked for, e.g. ``ws://{host}:8001`` when Daphne listens beside gunicorn.
LIVE_SOCKET_URL = (env_url("LIVE_SOCKET_URL", frozenset({"ws", "wss"})) or "").rstrip("/")

# Every login path (admin, browsable API, token endpoint, web pages, the old password of
# a password change) goes through authenticate(), so the lock-out (django-axes) lives in
# the authentication backends: axes' refuses a locked-out login, Django's checks the
# password. Failed logins are counted in the database (axes' AccessAttempt, shared by every
# process) per username and client address together (games.lib.lockout): the
# LOGIN_FAILURE_LIMIT-th failure locks that username out from that address, for
# LOGIN_FAILURE_WINDOW seconds after it; failures are forgotten that long after the last
# one, and at once by a successful login. LOGIN_FAILURE_LIMIT=0 turns the lock-out off.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
LOGIN_FAILURE_LIMIT = env_int("LOGIN_FAILURE_LIMIT", default=5)
LOGIN_FAILURE_WINDOW = env_int("LOGIN_FAILURE_WINDOW", default=900, minimum=1)
AXES_ENABLED = LOGIN_FAILURE_LIMIT > 0
AXES_HANDLER = "axes.handlers.database.AxesDatabaseHandler"
AXES_FAILURE_LIMIT = max(LOGIN_FAILURE_LIMIT, 1)
AXES_COOLOFF_TIME = timedelta(seconds=LOGIN_FAILURE_WINDOW)
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
# A refused attempt during a lock-out does not start it again: it ends on time.
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False
AXES_CLIENT_IP_CALLABLE = "games.lib.lockout.login_address"
AXES_USERNAME_CALLABLE = "games.lib.lockout.login_username"
AXES_LOCKOUT_CALLABLE = "games.lib.lockout.lockout_response"
# Successful logins are not written down (the request log has them); failures are.
AXES_DISABLE_ACCESS_LOG = True
AXES_VERBOSE = False
# Sign-ups and password-reset requests from one client address within that window
# (games.lib.form_posts, counted in the cache); 0 turns the count off.
SIGNUP_LIMIT = env_int("SIGNUP_LIMIT", default=10)
PASSWORD_RESET_LIMIT = env_int("PASSWORD_RESET_LIMIT", default=5)
# An API token unused for TOKEN_EXPIRY_DAYS days is refused and deleted (each use carries
# its expiry on; 0: tokens never expire). A new password revokes them all anyway
# (games.models.accounts).
TOKEN_EXPIRY_DAYS = env_int("TOKEN_EXPIRY_DAYS", default=90, maximum=36500)

# Mail (password resets). In development it is printed on the console; in production it
# goes through the SMTP server named by EMAIL_HOST (and, when set, its port, user, password
# and TLS), sent from DEFAULT_FROM_EMAIL. Production without EMAIL_HOST still starts, and
# prints the mail to the server's log like development.
EMAIL_HOST_SETTING = env_str("EMAIL_HOST")
if EMAIL_HOST_SETTING is None:
    EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
else:
    EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    EMAIL_HOST = EMAIL_HOST_SETTING
    EMAIL_PORT = env_int("EMAIL_PORT", default=587, minimum=1, maximum=65535)
    EMAIL_HOST_USER = env_str("EMAIL_HOST_USER") or ""
    EMAIL_HOST_PASSWORD = env_str("EMAIL_HOST_PASSWORD") or ""
    EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", default=True)
    EMAIL_TIMEOUT = 10
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL") or "scorekeeper@localhost"

# Throttles on the stateless calculators, which need no login (games.api.throttles): per
# address for anonymous callers, per user for signed-in ones, counted in the cache above.
# Arrange's expected mode costs up to seconds of CPU: its scope counts on top of arrange's.
REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"] = {
    "score-anon": env_rate("THROTTLE_SCORE_ANON", "60/minute"),
    "score-user": env_rate("THROTTLE_SCORE_USER", "300/minute"),
    "arrange-anon": env_rate("THROTTLE_ARRANGE_ANON", "30/minute"),
    "arrange-user": env_rate("THROTTLE_ARRANGE_USER", "120/minute"),
    "expected-anon": env_rate("THROTTLE_EXPECTED_ANON", "6/minute"),
    "expected-user": env_rate("THROTTLE_EXPECTED_USER", "10/minute"),
}
# Samples an anonymous expected-mode call may ask for (signed in: the engine's 20,000).
ARRANGE_ANON_MAX_SAMPLES = env_int(
    "ARRANGE_ANON_MAX_SAMPLES", default=2000, minimum=1, maximum=20_000
)
# Cards an anonymous fantasy-land arrangement may hold: 14 (Pineapple's fantasy land) takes
# about 0.1 s; each card more multiplies the work (17 cards: seconds). Signed in: 17.
ARRANGE_ANON_MAX_FANTASY_CARDS = env_int(
    "ARRANGE_ANON_MAX_FANTASY_CARDS", default=14, minimum=13, maximum=17
)

# One JSON line per request, and Django's errors, on standard error in production
# (scorekeeper.logging); in development runserver prints its own lines and these go only
# to whoever listens.
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"json": {"()": "scorekeeper.logging.JsonFormatter"}},
    "handlers": {"json": {"class": "logging.StreamHandler", "formatter": "json"}},
    "loggers": {
        "scorekeeper": {"level": "INFO", "handlers": [] if DEBUG else ["json"]},
        # Errors (a 500's traceback, a refused Host header) as JSON too; in development
        # Django's own console logging stays as it is.
        **({} if DEBUG else {"django": {"level": "ERROR", "handlers": ["json"]}}),
        # django-health-check logs each failing check with its traceback at WARNING;
        # /healthz logs one line per failure itself (scorekeeper.health), so only the
        # library's errors are kept.
        "health_check": {"level": "ERROR", "handlers": [] if DEBUG else ["json"]},
        # psycopg's pool says when it cannot reconnect (the database down), as JSON lines
        # like every other, instead of plain text on standard error.
        **(
            {}
            if DEBUG
            else {"psycopg": {"level": "WARNING", "handlers": ["json"], "propagate": False}}
        ),
    },
}

# The queue tasks go to and workers take them from (default "celery"): installations
# sharing one Redis database each need their own.
CELERY_TASK_DEFAULT_QUEUE = env_str("CELERY_QUEUE") or "celery"

# Seconds a PDF document may stay pending (its task queued or rendering) before it is
# given up on and marked failed (games.sheets.documents).
DOCUMENT_PENDING_TIMEOUT = env_int("DOCUMENT_PENDING_TIMEOUT", default=600, minimum=1)

# The largest group export taken as an upload (POST groups/{id}/import/, multipart "file"),
# in MB: larger ones answer 413. An upload goes to a temporary file, never into memory, so
# DATA_UPLOAD_MAX_MEMORY_SIZE (which limits a JSON body) does not apply to it. An import
# still pending after DOCUMENT_PENDING_TIMEOUT (no worker took it) or running after
# IMPORT_RUNNING_TIMEOUT seconds (its worker killed) is marked failed
# (games.services.imports).
IMPORT_MAX_UPLOAD_SIZE = env_int("IMPORT_MAX_UPLOAD_MB", default=256, minimum=1) * 1024 * 1024
IMPORT_RUNNING_TIMEOUT = env_int("IMPORT_RUNNING_TIMEOUT", default=3600, minimum=1)

# A task taken by a worker that dies before finishing it (SIGKILL, out of memory) is not
# lost: PDF renders are acknowledged only once done (games.tasks), and Redis hands an
# unacknowledged task to a worker again after ``visibility_timeout`` (RabbitMQ does at
# once). Half the pending timeout, so a document is rendered again before it is given up
# on; the check for such tasks runs every few seconds rather than Kombu's 100.
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": max(DOCUMENT_PENDING_TIMEOUT // 2, 1),
    "unacked_restore_interval": min(10, max(DOCUMENT_PENDING_TIMEOUT // 10, 1)),
    "unacked_restore_throttle": 1,
}
# A worker reserves no more tasks than it has processes: a task waiting in one worker's
# hands counts towards the visibility timeout too, and would be handed to a second one.
CELERY_WORKER_PREFETCH_MULTIPLIER = 1

# --- Content-Security-Policy (django-csp, scorekeeper.csp; docs/operations.md) ----------
# Every answer says where its page may load from: scripts, styles, images, fonts and
# requests from this site only; no inline script, no plugin (object), no framing by any
# site, forms posting only here. The table-side pages carry no inline script or style
# (tests/web/test_csp.py keeps it so). django-csp's format: the directives under
# "DIRECTIVES" (a directive it does not know is dropped).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'"],
        # The page's own origin over ws: and wss: too (not every browser counts them as
        # 'self'), and LIVE_SOCKET_URL's: scorekeeper.csp adds both for each request's host.
        "connect-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    }
}
# Sources added under a path prefix (scorekeeper.csp: django-csp has no such setting).
# Django's admin, DRF's browsable API (and its login) and Swagger UI ship templates with
# inline style attributes and <style> blocks, so styles (never scripts) may be inline
# there; Swagger UI also draws its icons from data: URLs.
CONTENT_SECURITY_POLICY_ADDITIONS = {
    "/admin/": {"style-src": ["'unsafe-inline'"]},
    "/api/v1/": {"style-src": ["'unsafe-inline'"]},
    "/api-auth/": {"style-src": ["'unsafe-inline'"]},
    "/api/docs/": {"style-src": ["'unsafe-inline'"], "img-src": ["data:"]},
}
