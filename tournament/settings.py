"""Django settings, read from the environment.

Environment variables:
- ``DEBUG``: ``1``/``true`` for development. Default off.
- ``SECRET_KEY``: required to serve the site unless ``DEBUG`` is on (then a development key is
  used).
- ``DATABASE_URL``: e.g. ``postgres://user:pass@host:5432/bollen``; default a SQLite file in the
  project folder.
- ``ALLOWED_HOSTS``: comma-separated; default ``127.0.0.1,localhost`` (plus ``*`` in DEBUG).
- ``BACKUP_DIR``: where automatic tournament backups are written (default ``./backups``).
- ``HTTPS``: ``1`` when the site is served over HTTPS (secure cookies, HSTS, redirect).
- ``SITE_URL``: the address phones open, e.g. ``http://192.168.1.20:8000`` (QR codes, table
  links); default: the server's own network address. A director can change it on the site.
- ``PUBLIC_STANDINGS_SECONDS``: how long the public standings and the projector may show
  standings before computing them again (default 10; 0 computes them on every request).
"""

from pathlib import Path

import dj_database_url
from django.utils.translation import gettext_lazy as _

from tournament.env import env_bool, env_list, env_str

BASE_DIR = Path(__file__).resolve().parent.parent
# Templates, static files and translations live inside the package, so that an installed wheel
# carries them and finds them where a checkout does.
PACKAGE_DIR = Path(__file__).resolve().parent

DEBUG = env_bool("DEBUG", default=False)

SECRET_KEY = env_str("SECRET_KEY", default="")
if not SECRET_KEY and DEBUG:
    SECRET_KEY = "django-insecure-development-only-key-do-not-use-in-production"  # noqa: S105
# Without a key (and without DEBUG) commands that sign nothing still run (migrations, checks of
# the code); serving the site refuses to start (tournament/wsgi.py) and so does
# `check --deploy` (tournament/checks.py), saying what to set.

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", default=["127.0.0.1", "localhost"])
if DEBUG:
    ALLOWED_HOSTS = [*ALLOWED_HOSTS, "*"]

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_tables2",
    "django_htmx",
    "axes",
    "tournament",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "tournament.middleware.ChosenLanguageMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "tournament.urls"
WSGI_APPLICATION = "tournament.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [PACKAGE_DIR / "templates"],  # before the other apps' (registration/)
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=60 if env_bool("DB_PERSISTENT", default=False) else 0,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Several requests write at once during a tournament (table links); wait instead of failing.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {"timeout": 20, "transaction_mode": "IMMEDIATE", "init_command": "PRAGMA journal_mode=WAL;"}
    )

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {
        "NAME": "django.contrib.auth.password_validation.MinimumLengthValidator",
        "OPTIONS": {"min_length": 10},
    },
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "tournament_list"
LOGOUT_REDIRECT_URL = "login"

# Login throttling: five failures per username and address lock out for 15 minutes.
AXES_FAILURE_LIMIT = 5
AXES_COOLOFF_TIME = 0.25
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True

LANGUAGE_CODE = "nl"
LANGUAGES = [("nl", _("Dutch")), ("en", _("English"))]
LOCALE_PATHS = [PACKAGE_DIR / "locale"]
TIME_ZONE = "Europe/Amsterdam"
USE_I18N = True
FORMAT_MODULE_PATH = ["tournament.locale_formats"]
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
# tournament/static is found as the app's static folder.
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

# The address phones open (QR codes, table links, "where do I sit"), e.g. http://192.168.1.20:8000.
# A director can change it on the site; empty: the server's own network address.
SITE_URL = env_str("SITE_URL", default="").strip().rstrip("/")

# Seconds the seating engine may search when the director seats a round.
SEATING_TIME_LIMIT = float(env_str("SEATING_TIME_LIMIT", default="5"))

BACKUP_DIR = Path(env_str("BACKUP_DIR", default=str(BASE_DIR / "backups")))

# Every player's phone reloads the public standings during a round; each server process computes
# them at most once per this many seconds (the director's pages are always exact).
PUBLIC_STANDINGS_SECONDS = float(env_str("PUBLIC_STANDINGS_SECONDS", default="10"))
CACHES = {
    "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "bollen"}
}

# Uploaded spreadsheets and tournament files: refuse anything bigger before parsing.
IMPORT_MAX_BYTES = 5 * 1024 * 1024
DATA_UPLOAD_MAX_MEMORY_SIZE = IMPORT_MAX_BYTES + 1024 * 1024
FILE_UPLOAD_MAX_MEMORY_SIZE = IMPORT_MAX_BYTES + 1024 * 1024

DJANGO_TABLES2_TEMPLATE = "django_tables2/bootstrap5.html"

# Security headers that are right in every deployment.
X_FRAME_OPTIONS = "DENY"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
SESSION_COOKIE_HTTPONLY = True
CSRF_COOKIE_HTTPONLY = False  # the score sheet's offline queue reads the token from the form

if env_bool("HTTPS", default=False):
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", default=True)
    SECURE_HSTS_SECONDS = 60 * 60 * 24 * 365
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", default=[])

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": "WARNING"},
}
