"""What the server's window shows: one short line for a refused request, a traceback only for a
real error, and never the secret of a table link, an invitation or a password-reset link."""

from __future__ import annotations

import logging
import re

# /s/<token>/ (table links) and /join/<token>/ (team invitations).
_SECRET_IN_PATH = re.compile(r"/(s|join)/[A-Za-z0-9_-]{16,}")
# /account/reset/<uidb64>/<token>/: Django's token is "<timestamp>-<hash>"; the account's id
# (uidb64) stays, "set-password" (the step after it) is no token.
_RESET_TOKEN = re.compile(r"(/account/reset/[A-Za-z0-9_-]+/)[0-9a-z]+-[0-9a-f]{16,}")


def mask_secrets(text: str) -> str:
    return _RESET_TOKEN.sub(r"\1…", _SECRET_IN_PATH.sub(r"/\1/…", text))


class QuietRefusals(logging.Filter):
    """A 4xx answer (refused, not found, a foreign Host header) is the site doing its job: log
    its line without a traceback. Secrets in paths are masked in every line."""

    def filter(self, record: logging.LogRecord) -> bool:
        status = getattr(record, "status_code", None)
        refused = (status is not None and status < 500) or record.name.startswith("django.security")
        if refused:
            record.exc_info = None
            record.exc_text = None
        message = record.getMessage()
        masked = mask_secrets(message)
        if masked != message:
            record.msg, record.args = masked, ()
        return True
