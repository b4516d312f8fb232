"""The server's window: refused requests in one line without a traceback, secrets masked, real
errors with their traceback."""

import logging
import sys

from tournament.venue.log_filters import QuietRefusals, mask_secrets


def _record(name, status, message, *args, exc=True):
    try:
        raise PermissionError("boom")
    except PermissionError:
        exc_info = sys.exc_info() if exc else None
    record = logging.LogRecord(name, logging.WARNING, __file__, 1, message, args, exc_info)
    if status is not None:
        record.status_code = status
    return record


def test_a_refused_request_logs_its_line_without_a_traceback():
    record = _record("django.request", 403, "Forbidden (Permission denied): %s", "/t/x/players/")
    assert QuietRefusals().filter(record)
    assert record.exc_info is None
    assert record.getMessage() == "Forbidden (Permission denied): /t/x/players/"


def test_a_foreign_host_logs_no_traceback():
    record = _record("django.security.DisallowedHost", None, "Invalid HTTP_HOST header")
    QuietRefusals().filter(record)
    assert record.exc_info is None


def test_a_server_error_keeps_its_traceback():
    record = _record("django.request", 500, "Internal Server Error: %s", "/t/x/")
    QuietRefusals().filter(record)
    assert record.exc_info is not None


def test_table_link_and_invitation_secrets_are_masked():
    token = "FBiwVNhrHzOjSRp-dS0D3JO5yWLtySXpif29Qr7A6Nw"
    record = _record("django.request", 409, "Conflict: %s", f"/s/{token}/", exc=False)
    QuietRefusals().filter(record)
    assert token not in record.getMessage()
    assert record.getMessage() == "Conflict: /s/…/"
    assert mask_secrets(f"GET /join/{token}/ 410") == "GET /join/…/ 410"
    assert mask_secrets("/t/groot-toernooi/standings/") == "/t/groot-toernooi/standings/"


def test_a_password_reset_links_token_is_masked():
    line = 'GET /account/reset/MTI/cjy7q4-1d6a2f0b9c8e7d6a5b4c3d2e1f0a9b8c/ HTTP/1.1" 302'
    assert mask_secrets(line) == 'GET /account/reset/MTI/…/ HTTP/1.1" 302'
    for kept in ("/account/reset/MTI/set-password/", "/account/reset/sent/"):
        assert mask_secrets(kept) == kept
