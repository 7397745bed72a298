"""Hexkeep settings: one module; everything that differs between machines comes from the
environment.

Environment variables (all optional in development):
- ``DEBUG``: "1"/"true" for development; default off.
- ``SECRET_KEY``: required when DEBUG is off.
- ``ALLOWED_HOSTS``: comma-separated host names; default "127.0.0.1,localhost" with DEBUG on.
- ``DATABASE_URL``: e.g. ``postgres://user@host:5432/db``; default a SQLite file (WAL mode).
- ``MEDIA_ROOT``: where uploaded crests and table photos go; default ``./media``.
- ``CSRF_TRUSTED_ORIGINS``: comma-separated origins when served behind HTTPS.
- ``SITE_URL``: the site's address, for links in notification e-mails and webhook posts.
- ``TRUSTED_PROXY_COUNT``, ``AXES_FAILURE_LIMIT``, ``AXES_COOLOFF_MINUTES``: sign-in throttling
  (docs/deployment.md, "Sign-in").
- ``PAGE_CACHE``: keep the phone's campaign pages rendered per viewer and chronicle version
  (campaign/live.py); default on when DEBUG is off. ``PAGE_CACHE_SECONDS``: how long a kept
  page lives at most (default 300).
- ``EMAIL_URL``-style settings are not used: development prints mail to the console; production
  reads ``EMAIL_HOST``/``EMAIL_PORT``/``EMAIL_HOST_USER``/``EMAIL_HOST_PASSWORD``.
"""

from __future__ import annotations

import os
from datetime import timedelta
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool = False) -> bool:
    """Read a yes/no variable; anything unrecognised is a configuration error, not a silent no."""
    raw = os.environ.get(name)
    if raw is None or raw == "":
        return default
    value = raw.strip().lower()
    if value in {"1", "true", "yes", "on"}:
        return True
    if value in {"0", "false", "no", "off"}:
        return False
    raise ImproperlyConfigured(f"{name} must be true or false, not {raw!r}.")


def env_list(name: str, default: list[str]) -> list[str]:
    raw = os.environ.get(name)
    if raw is None:
        return default
    return [item.strip() for item in raw.split(",") if item.strip()]


def env_int(name: str, default: int) -> int:
    raw = os.environ.get(name)
    if raw is None or raw == "":
        return default
    try:
        return int(raw)
    except ValueError as exc:
        raise ImproperlyConfigured(f"{name} must be a whole number, not {raw!r}.") from exc


DEBUG = env_bool("DEBUG", False)

SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is off.")
    SECRET_KEY = "dev-only-insecure-key-never-use-in-production"

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost"] if DEBUG else [])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django_htmx",
    "template_partials",
    "django_tasks",
    "django_tasks_db",
    "axes",
    "csp",
    "campaign",
    "ledger",
    "battles",
    "campaign.systems.mighty_kingdoms",
    "campaign.systems.middle_sea",
    "campaign.systems.war_of_kings",
    "campaign.systems.swords_and_stones",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "campaign.middleware.RefuseNulCharacters",
    "campaign.middleware.AnswerDatabaseConflicts",
    # Content-Security-Policy on every answer; failed sign-ins counted and refused (last).
    "csp.middleware.CSPMiddleware",
    "axes.middleware.AxesMiddleware",
    # The phone's campaign pages answered from the page cache while nothing changed (last).
    "campaign.live.PageCache",
]

if not DEBUG:
    # Production serves static files itself (compressed, with far-future caching); runserver
    # and the test live server serve them from static/ directly.
    MIDDLEWARE.insert(1, "whitenoise.middleware.WhiteNoiseMiddleware")

ROOT_URLCONF = "campaign.urls"
WSGI_APPLICATION = "campaign.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            # Our {% url %} and {% static %} (campaign/templatetags/links.py, assets.py) keep each
            # address once worked out.
            "builtins": ["campaign.templatetags.links", "campaign.templatetags.assets"],
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    }
]

# A worker keeps its PostgreSQL connection ten minutes: the pages' prepared reads and their plans
# live on it (campaign/prepared.py), and PostgreSQL plans a prepared read afresh in its first five
# runs on a connection, about 5 ms a page at 16x (docs/deployment.md, "Prepared reads"). Health
# checks replace a connection the server dropped.
DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=env_int("CONN_MAX_AGE", 600),
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # WAL lets readers carry on while a write is in progress; IMMEDIATE makes every transaction
    # take the write lock up front, so two phones spending at once queue instead of failing.
    DATABASES["default"]["CONN_MAX_AGE"] = 0
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {
            "transaction_mode": "IMMEDIATE",
            "timeout": 20,
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        }
    )

if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # The reads every page makes go through campaign/prepared.py: prepared the first time a
    # connection runs them (0), or after so many runs, or never ("off", for a pooler that
    # cannot carry prepared statements). Django's own queries are never prepared.
    _threshold = os.environ.get("DB_PREPARE_THRESHOLD", "0").strip().lower()
    DATABASES["default"].setdefault("OPTIONS", {})["prepare_threshold"] = (
        None if _threshold in ("off", "none", "") else int(_threshold))

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Background work (campaign books, e-mail, webhooks) on Django's tasks framework: the queue is a
# table of this database, worked through by `manage.py db_worker` (docs/deployment.md).
TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
# The play, overview, kingdom and map pages kept rendered per viewer and chronicle version
# (campaign/live.py, docs/performance.md): in each worker's memory, since a kept page saves a
# render only where it is asked again, and a lookup costs no query.
PAGE_CACHE = env_bool("PAGE_CACHE", not DEBUG)
CACHES = {
    "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
    "pages": {
        "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
        "LOCATION": "hexkeep-pages",
        "TIMEOUT": env_int("PAGE_CACHE_SECONDS", 300),
        "OPTIONS": {"MAX_ENTRIES": 400},
    },
}
# The site's own address, for links in notification e-mails and webhook posts.
SITE_URL = os.environ.get("SITE_URL", "http://127.0.0.1:8000" if DEBUG else "")

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
# Sign-in hardening (docs/deployment.md, "Sign-in"): django-axes counts failed sign-ins in the
# database, per account and, separately, per address: after AXES_FAILURE_LIMIT failures that
# account (from anywhere) or that address (for any account) is refused for AXES_COOLOFF_TIME.
AUTHENTICATION_BACKENDS = [
    "campaign.signin.ThrottledSignIn",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = env_int("AXES_FAILURE_LIMIT", 5)
AXES_COOLOFF_TIME = timedelta(minutes=env_int("AXES_COOLOFF_MINUTES", 15))
AXES_LOCKOUT_PARAMETERS = ["username", "ip_address"]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_TEMPLATE = "registration/locked_out.html"
AXES_VERBOSE = False
# Behind N proxies that each append to X-Forwarded-For, the client is the N-th address from the
# right; 0 (no proxy): the connection's own address (campaign.signin.client_ip).
TRUSTED_PROXY_COUNT = env_int("TRUSTED_PROXY_COUNT", 0)
AXES_CLIENT_IP_CALLABLE = "campaign.signin.client_ip"
AXES_USERNAME_CALLABLE = "campaign.signin.client_username"

# Content-Security-Policy: our own scripts, styles, fonts and images only; nothing inline, no
# eval. Pages carry no inline script, no style attribute and no javascript: link (colour
# swatches take their colour from data-c through static/js/hexkeep.js); the print previews
# alone add inline styles for their computed page layout (campaign/views/sheets.py).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'"],
        "font-src": ["'self'"],
        "connect-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    },
}

LOGIN_URL = "login"
# Django's database sessions, read with a statement worked out once (campaign/sessions.py).
SESSION_ENGINE = "campaign.sessions"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

LANGUAGE_CODE = "en"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "/static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT", BASE_DIR / "staticfiles"))
MEDIA_URL = "/media/"
MEDIA_ROOT = Path(os.environ.get("MEDIA_ROOT", BASE_DIR / "media"))

STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}

# Uploads: crests and table photos are capped at 5 MB each; the request itself a little above.
MAX_IMAGE_UPLOAD_BYTES = 5 * 1024 * 1024
DATA_UPLOAD_MAX_MEMORY_SIZE = 12 * 1024 * 1024
FILE_UPLOAD_MAX_MEMORY_SIZE = 6 * 1024 * 1024
MAX_CAMPAIGN_IMPORT_BYTES = 50 * 1024 * 1024

if DEBUG:
    EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
else:
    EMAIL_BACKEND = os.environ.get("EMAIL_BACKEND", "django.core.mail.backends.smtp.EmailBackend")
    EMAIL_HOST = os.environ.get("EMAIL_HOST", "localhost")
    EMAIL_PORT = env_int("EMAIL_PORT", 25)
    EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
    EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
    EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", False)
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "hexkeep@localhost")

# Production hardening: on whenever DEBUG is off, so `manage.py check --deploy` stays clean.
if not DEBUG:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 31536000)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SECURE_CONTENT_TYPE_NOSNIFF = True
    SECURE_REFERRER_POLICY = "same-origin"
    X_FRAME_OPTIONS = "DENY"

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
    # axes tells every sign-in at INFO; a pause (lockout) is a WARNING and stays in the log.
    "loggers": {"weasyprint": {"level": "ERROR"}, "fontTools": {"level": "ERROR"},
                "axes": {"level": "WARNING"}},
}
