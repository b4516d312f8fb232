"""Django settings, read from the environment and from the settings file of the data folder.

The data folder holds everything the site writes: the secret key, the SQLite database, the
backups, the collected static files, and the settings file. Nothing is written beside the code,
so an installed package's virtualenv can be made again without losing anything.

- ``BOLLEN_DATA_DIR``: the data folder (read from the environment only: the settings file lives
  in it). Default: the checkout for ``make run`` (when ``bollen/`` sits beside ``manage.py``),
  else the user's data folder (``~/.local/share/bollen`` on Linux; platformdirs' user data dir
  ``bollen``). It is made on first use, readable by its owner only.

In the data folder (each has its own variable to put it elsewhere):

============================  ==========================  ==================================
what                          file in the data folder     variable
============================  ==========================  ==================================
the settings file             ``.env`` in the checkout,   ``ENV_FILE`` (empty: none)
                              else ``bollen.env``
the secret key                ``.secret_key``             ``SECRET_KEY_FILE`` / ``SECRET_KEY``
the SQLite database           ``db.sqlite3``              ``DATABASE_URL``
backups                       ``backups/``                ``BACKUP_DIR``
collected static files        ``staticfiles/``            ``STATIC_ROOT``
============================  ==========================  ==================================

Every variable below may be set in the environment or as a ``KEY=VALUE`` line in the settings
file (the checkout's ``.env`` is git-ignored); the environment wins. So ``make run``, every
``manage.py`` (or ``bollen manage``) command and gunicorn use the same settings.

- ``DEBUG``: ``1``/``true`` for development. Default off.
- ``SECRET_KEY``: signs sessions, CSRF tokens and the sign-in cookie. When it is not set, the key
  in ``.secret_key`` in the data folder is used, made on first use (readable only by its owner;
  git ignores it). ``SECRET_KEY_FILE`` puts that file elsewhere.
- ``DATABASE_URL``: e.g. ``postgres://user:pass@host:5432/bollen`` (needs the ``postgres``
  extra: ``pip install 'bollen-toernooi[postgres]'``); default the SQLite file ``db.sqlite3`` in
  the data folder.
- ``ALLOWED_HOSTS``: comma-separated names the site answers to. Default: this machine's names and
  network addresses, ``127.0.0.1``, ``localhost``, ``[::1]`` and the host of ``SITE_URL``; the
  host of the address a director sets on the site is accepted too (tournament/venue/middleware.py).
- ``BACKUP_DIR``: where automatic tournament backups are written (default ``backups/`` in the
  data folder).
- ``STATIC_ROOT``: where ``collectstatic`` (run by ``serve``) puts the files the site serves
  (default ``staticfiles/`` in the data folder).
- ``HTTPS``: ``1`` when the site is served over HTTPS (secure cookies, HSTS, redirect).
- ``SITE_URL``: the address phones open, e.g. ``http://192.168.1.20:8000`` (QR codes, table
  links); default: the server's own network address. A director can change it on the site.
- ``PUBLIC_STANDINGS_SECONDS``: how long the public standings and the projector may show
  standings before computing them again (default 10; 0 computes them on every request).
- ``CACHE``: where the computed standings are kept: ``database`` (a table in the database, shared
  by every gunicorn worker and every server using that database; ``manage.py migrate`` creates
  it) or ``memory`` (each process its own). Default: ``database`` on PostgreSQL, ``memory`` on
  SQLite.
- ``ENV_FILE``: the settings file to read instead of the data folder's (empty: none).
- ``EMAIL_HOST``, ``EMAIL_PORT`` (587), ``EMAIL_HOST_USER``, ``EMAIL_HOST_PASSWORD``,
  ``EMAIL_USE_TLS`` (on for port 587), ``EMAIL_USE_SSL`` (on for port 465; not both),
  ``DEFAULT_FROM_EMAIL``: Django's e-mail settings. Without ``EMAIL_HOST`` the site sends no
  e-mail and says so where it would (password reset, invitations, notices to a club's admins).
- ``TRUSTED_PROXIES``: the reverse proxies' addresses, comma-separated (``127.0.0.1`` for nginx
  on this machine), whose ``X-Real-IP`` (the visitor's address) and ``X-Request-ID`` are
  believed. Default: none.
- ``LOG_FORMAT``: ``text`` (the server's window, the default) or ``json`` (one object a line).
"""

import os
from pathlib import Path
from urllib.parse import urlsplit

import dj_database_url
import django_stubs_ext
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

from bollen.env import (
    DataDirError,
    SecretKeyFileError,
    data_dir_ensure,
    data_dir_find,
    env_bool,
    env_file_load,
    env_list,
    env_str,
    module_installed,
    secret_key_from_file,
)
from tournament.venue import network

# ModelAdmin[Tournament] and the like: generic in django-stubs, subscriptable at runtime with this.
django_stubs_ext.monkeypatch()

BASE_DIR = Path(__file__).resolve().parent.parent
# A checkout (make run, manage.py) rather than an installed package (bollen serve, bollen manage).
CHECKOUT = (BASE_DIR / "manage.py").is_file()
# Static files and translations live inside the package, so that an installed wheel carries
# them and finds them where a checkout does. The templates are at the checkout's top level
# (templates/); the wheel carries them inside the package (setup.py copies them there).
PACKAGE_DIR = BASE_DIR / "tournament"
TEMPLATES_DIR = (
    PACKAGE_DIR / "templates" if (PACKAGE_DIR / "templates").is_dir() else BASE_DIR / "templates"
)

# What the site writes goes here, never into the code's folder (see the docstring).
DATA_DIR = data_dir_find(code_dir=BASE_DIR)
try:
    data_dir_ensure(DATA_DIR)
except DataDirError as error:
    raise ImproperlyConfigured(str(error)) from None

# The checkout keeps the settings file it always had (.env); another data folder bollen.env.
_env_default = DATA_DIR / (".env" if DATA_DIR.resolve() == BASE_DIR else "bollen.env")
_env_file = env_str("ENV_FILE", default=str(_env_default)).strip()
ENV_FILE = Path(_env_file) if _env_file else None
env_file_load(ENV_FILE)

DEBUG = env_bool("DEBUG", default=False)

SECRET_KEY_FILE = Path(env_str("SECRET_KEY_FILE", default="") or DATA_DIR / ".secret_key")
# Why there is no key, when there is none: serving the site then refuses to start
# (bollen/wsgi.py, `manage.py serve`) and `check --deploy` fails, both saying this. Commands
# that sign nothing (migrations, checks of the code) still run.
SECRET_KEY_PROBLEM = ""
SECRET_KEY = env_str("SECRET_KEY", default="").strip()
if not SECRET_KEY:
    try:
        SECRET_KEY = secret_key_from_file(SECRET_KEY_FILE)
    except SecretKeyFileError as error:
        SECRET_KEY_PROBLEM = str(error)
        if DEBUG:  # development on a read-only checkout still runs
            SECRET_KEY = "django-insecure-development-only-key-do-not-use-in-production"  # noqa: S105

# The address phones open (QR codes, table links, "where do I sit"), e.g. http://192.168.1.20:8000.
# A director can change it on the site; empty: the server's own network address.
SITE_URL = env_str("SITE_URL", default="").strip().rstrip("/")


def _bracketed(address: str) -> str:
    return f"[{address}]" if ":" in address else address


# Whether ALLOWED_HOSTS is this machine's own names: then an address the machine gets after the
# server started (the laptop joined the wifi late) is accepted too (tournament/venue/middleware.py).
ALLOWED_HOSTS_FROM_MACHINE = "ALLOWED_HOSTS" not in os.environ
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", default=[])
if ALLOWED_HOSTS_FROM_MACHINE:
    ALLOWED_HOSTS = ["127.0.0.1", "localhost", "[::1]"]
    for _host in [
        *map(_bracketed, network.machine_addresses()),
        *network.machine_names(),
        _bracketed(network.url_host(SITE_URL)),
    ]:
        if _host and _host not in ALLOWED_HOSTS:
            ALLOWED_HOSTS.append(_host)
# No "*" in DEBUG either: a development server on the club's wifi shows its settings on every
# error page, so it answers to this machine's own names only, like the venue server.

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_tables2",
    "axes",
    "tournament",
]

MIDDLEWARE = [
    # Every log line of a request carries its id; /healthz answers before the host check and
    # the HTTPS redirect (probes); the visitor's address from a trusted proxy (TRUSTED_PROXIES).
    "tournament.venue.request_ids.RequestIdMiddleware",
    "tournament.venue.health.HealthCheckMiddleware",
    "tournament.venue.proxy.ClientAddressMiddleware",
    # Before anything asks for the host: also accept the address a director set on the site.
    "tournament.venue.middleware.SiteAddressHostMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "tournament.venue.middleware.ContentSecurityPolicyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "tournament.venue.middleware.ChosenLanguageMiddleware",
    "tournament.venue.middleware.RequestBodyCapMiddleware",
    "tournament.venue.middleware.DatabaseUnavailableMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "bollen.urls"
WSGI_APPLICATION = "bollen.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [TEMPLATES_DIR],  # before the other apps' (registration/)
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "tournament.clubs.context.club",
            ],
        },
    },
]

DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{DATA_DIR / 'db.sqlite3'}",
        conn_max_age=60 if env_bool("DB_PERSISTENT", default=False) else 0,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql" and not (
    module_installed("psycopg") or module_installed("psycopg2")
):
    raise ImproperlyConfigured(
        "DATABASE_URL noemt PostgreSQL, maar het stuurprogramma psycopg is niet geïnstalleerd. "
        "Installeer het: pip install 'bollen-toernooi[postgres]' (in een checkout: "
        "scripts/bootstrap.sh).\n"
        "DATABASE_URL names PostgreSQL, but its driver psycopg is not installed. Install it: "
        "pip install 'bollen-toernooi[postgres]' (in a checkout: scripts/bootstrap.sh)."
    )
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Django's SQLite backend, with the file (and its -wal/-shm) readable by its owner only.
    DATABASES["default"]["ENGINE"] = "tournament.venue.sqlite"
if DATABASES["default"]["ENGINE"] == "tournament.venue.sqlite":
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
# The page that says so, in the visitor's language, with how to lift it.
AXES_LOCKOUT_CALLABLE = "tournament.venue.error_pages.signing_in_paused"

LANGUAGE_CODE = "nl"
LANGUAGES = [("nl", _("Dutch")), ("en", _("English"))]
LOCALE_PATHS = [PACKAGE_DIR / "locale"]
TIME_ZONE = "Europe/Amsterdam"
USE_I18N = True
FORMAT_MODULE_PATH = ["tournament.locale_formats"]
USE_TZ = True

STATIC_URL = "static/"
# Where collectstatic puts the files whitenoise serves.
STATIC_ROOT = Path(env_str("STATIC_ROOT", default=str(DATA_DIR / "staticfiles")))
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

# Seconds the seating engine may search when the director seats a round.
SEATING_TIME_LIMIT = float(env_str("SEATING_TIME_LIMIT", default="5"))
# A cap on the seating search's steps besides its time (None: the time decides). The tests set
# one, so that a seating does not depend on how busy the machine is.
SEATING_MAX_ITERATIONS: int | None = None

BACKUP_DIR = Path(env_str("BACKUP_DIR", default=str(DATA_DIR / "backups")))

# Every player's phone reloads the public standings during a round; each server process computes
# them at most once per this many seconds (the director's pages are always exact).
PUBLIC_STANDINGS_SECONDS = float(env_str("PUBLIC_STANDINGS_SECONDS", default="10"))
# An idle sheet page (a second phone on the table's link) asks this often (plus up to a quarter
# more, at random) whether the sheet was saved elsewhere.
SHEET_POLL_SECONDS = float(env_str("SHEET_POLL_SECONDS", default="15"))
# The standings are cached under keys read from the database (tournament/standings/tables.py),
# so a per-process cache is never wrong, only colder; the database cache is shared by every
# worker and every application server, so the public standings are computed once for all.
CACHE_TABLE = "bollen_cache"
_cache = env_str(
    "CACHE",
    default="memory" if DATABASES["default"]["ENGINE"].endswith("sqlite3") else "database",
).strip()
if _cache not in {"memory", "database"}:
    raise ValueError(f"CACHE={_cache!r} in the settings: use 'database' or 'memory'.")
CACHES = {
    "default": (
        {
            "BACKEND": "django.core.cache.backends.db.DatabaseCache",
            "LOCATION": CACHE_TABLE,
            # A tournament's standings are some hundreds of kB; old states are never read
            # again, so a few dozen entries are plenty (the oldest third goes past 100).
            "OPTIONS": {"MAX_ENTRIES": 100},
        }
        if _cache == "database"
        else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "bollen"}
    )
}
# How long computed standings are kept (their key changes with every change; this only frees
# the room of old ones: unchanged standings are computed again after it, once).
STANDINGS_CACHE_SECONDS = 600

# Uploaded spreadsheets and tournament files: refuse anything bigger before parsing.
IMPORT_MAX_BYTES = 5 * 1024 * 1024
DATA_UPLOAD_MAX_MEMORY_SIZE = IMPORT_MAX_BYTES + 1024 * 1024
FILE_UPLOAD_MAX_MEMORY_SIZE = IMPORT_MAX_BYTES + 1024 * 1024
# No request is larger than an import with its form around it; a larger one is refused unread
# (tournament.venue.middleware.RequestBodyCapMiddleware, and waitress in ``serve``).
REQUEST_MAX_BYTES = IMPORT_MAX_BYTES + 1024 * 1024
# A photo of a score sheet: as large as an import, so that one photo with its form fits in a
# request (the page's script sends each on its own, made 3000 pixels long: 1-3 MB).
PHOTO_MAX_BYTES = IMPORT_MAX_BYTES

# E-mail (password reset, invitations, notices to a club's admins), with Django's own setting
# names. Without EMAIL_HOST the site sends nothing and says e-mail is off where it would send:
# a reset is then done by an admin and an invitation is handed over as a link or QR code.
EMAIL_HOST = env_str("EMAIL_HOST", default="").strip()
EMAIL_PORT = int(env_str("EMAIL_PORT", default="587") or "587")
EMAIL_HOST_USER = env_str("EMAIL_HOST_USER", default="")
EMAIL_HOST_PASSWORD = env_str("EMAIL_HOST_PASSWORD", default="")
EMAIL_USE_SSL = env_bool("EMAIL_USE_SSL", default=EMAIL_PORT == 465)
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", default=EMAIL_PORT == 587 and not EMAIL_USE_SSL)
if EMAIL_USE_TLS and EMAIL_USE_SSL:
    raise ImproperlyConfigured(
        "EMAIL_USE_TLS and EMAIL_USE_SSL are both on in the settings; a mail server speaks one "
        "of them: EMAIL_USE_TLS=1 for port 587 (STARTTLS), EMAIL_USE_SSL=1 for port 465."
    )
EMAIL_TIMEOUT = 10
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", default="bollen@localhost")
SERVER_EMAIL = DEFAULT_FROM_EMAIL
EMAIL_ENABLED = bool(EMAIL_HOST)
EMAIL_BACKEND = (
    "django.core.mail.backends.smtp.EmailBackend"
    if EMAIL_ENABLED
    else "django.core.mail.backends.dummy.EmailBackend"
)
# A password-reset link works this long (Django's default is three days).
PASSWORD_RESET_TIMEOUT = 60 * 60 * 2

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

# Plain http by address (phones on the club's wifi) needs nothing here: Django compares a form's
# Origin with the Host it was sent to. Behind a proxy that changes the host, SITE_URL counts.
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", default=[])
_site = urlsplit(SITE_URL)
if _site.scheme in {"http", "https"} and _site.hostname:
    _site_origin = f"{_site.scheme}://{_site.netloc.rsplit('@', 1)[-1]}"
    if _site_origin not in CSRF_TRUSTED_ORIGINS:
        CSRF_TRUSTED_ORIGINS.append(_site_origin)

# Behind a reverse proxy (deploy/nginx-bollen.conf): the proxies' addresses, comma-separated
# (127.0.0.1 for nginx on this machine), whose X-Real-IP header names the visitor (the sign-in
# lock-out counts per address). Empty: the header is ignored, from anyone.
TRUSTED_PROXIES = env_list("TRUSTED_PROXIES", default=[])
# The log lines: "text" (the server's window) or "json" (one object a line, for a collector).
LOG_FORMAT = env_str("LOG_FORMAT", default="text").strip().lower()
if LOG_FORMAT not in {"text", "json"}:
    raise ValueError(f"LOG_FORMAT={LOG_FORMAT!r} in the settings: use 'text' or 'json'.")
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {
        "quiet_refusals": {"()": "tournament.venue.log_filters.QuietRefusals"},
        "request_id": {"()": "tournament.venue.request_ids.RequestIdFilter"},
    },
    "formatters": {
        "text": {"()": "tournament.venue.request_ids.TextFormatter"},
        "json": {"()": "tournament.venue.request_ids.JsonFormatter"},
        # runserver's access lines, as Django writes them, with secrets in paths masked.
        "django.server": {
            "()": "django.utils.log.ServerFormatter",
            "format": "[{server_time}] {message}",
            "style": "{",
        },
    },
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            "formatter": LOG_FORMAT,
            "filters": ["quiet_refusals", "request_id"],
        },
        "django.server": {
            "class": "logging.StreamHandler",
            "formatter": "json" if LOG_FORMAT == "json" else "django.server",
            "filters": ["quiet_refusals", "request_id"],
        },
    },
    "loggers": {
        # Django's own console handler (with DEBUG on) would print the lines unmasked: the
        # root's handler prints them.
        "django": {"handlers": [], "level": "WARNING", "propagate": True},
        "django.server": {"handlers": ["django.server"], "level": "INFO", "propagate": False},
    },
    "root": {"handlers": ["console"], "level": "WARNING"},
}
