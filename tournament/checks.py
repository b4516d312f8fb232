"""Checks of the site's own configuration."""

from django.conf import settings
from django.core.checks import Error, Tags, register
from django.core.exceptions import ImproperlyConfigured

NO_KEY_MESSAGE = (
    "SECRET_KEY is not set. Set it in the environment (a long random string), "
    "or set DEBUG=1 for development."
)


def secret_key_set() -> bool:
    try:
        return bool(settings.SECRET_KEY)
    except ImproperlyConfigured:  # Django refuses to hand out an empty key
        return False


def require_secret_key() -> None:
    """Refuse to serve the site without a secret key (sessions, CSRF and the sign-in cookie are
    signed with it)."""
    if not secret_key_set():
        raise ImproperlyConfigured(NO_KEY_MESSAGE)


@register(Tags.security, deploy=True)
def secret_key_check(app_configs=None, **kwargs) -> list[Error]:
    return [] if secret_key_set() else [Error(NO_KEY_MESSAGE, id="tournament.E001")]
