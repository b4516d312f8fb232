"""Every request has an id (the proxy's ``X-Request-ID`` when it is a plain token), sent back in
the response and written on every log line of the request; ``LOG_FORMAT=json`` writes one JSON
object a line, secrets in paths still masked. (gunicorn's lines: tests/site/test_https_proxy.py.)"""

import io
import json
import logging
import re
import secrets

import pytest
from django.test import Client, override_settings

from tournament.venue.request_ids import JsonFormatter, RequestIdFilter

pytestmark = pytest.mark.django_db


@pytest.fixture
def console():
    """The site's console handler (bollen/settings.py, LOGGING), writing into a string."""
    handler = next(
        handler
        for handler in logging.getLogger().handlers
        if any(isinstance(found, RequestIdFilter) for found in handler.filters)
    )
    formatter = handler.formatter
    stream = io.StringIO()
    previous = handler.setStream(stream)
    yield handler, stream
    handler.setStream(previous)
    handler.setFormatter(formatter)


@override_settings(TRUSTED_PROXIES=["127.0.0.1"])
def test_the_proxys_id_is_sent_back_and_on_the_requests_log_lines(client, console):
    _handler, stream = console
    response = client.get("/geen-pagina/", HTTP_X_REQUEST_ID="4f2a9c0e1b7d4e66a1b2c3d4e5f60718")
    assert response.status_code == 404
    assert response["X-Request-ID"] == "4f2a9c0e1b7d4e66a1b2c3d4e5f60718"
    assert "Not Found: /geen-pagina/ [request 4f2a9c0e1b7d4e66a1b2c3d4e5f60718]" in (
        stream.getvalue().splitlines()
    )


def test_a_visitor_cannot_choose_the_id_without_a_trusted_proxy(client):
    """Straight to the application server (no proxy, or not one of TRUSTED_PROXIES): a visitor
    could otherwise give their requests the id of someone else's."""
    made = client.get("/healthz", HTTP_X_REQUEST_ID="4f2a9c0e1b7d4e66a1b2c3d4e5f60718")
    assert re.fullmatch(r"[0-9a-f]{32}", made["X-Request-ID"])
    assert made["X-Request-ID"] != "4f2a9c0e1b7d4e66a1b2c3d4e5f60718"


@override_settings(TRUSTED_PROXIES=["127.0.0.1"])
def test_an_id_that_is_no_plain_token_is_replaced(client):
    for sent in ("", "short", "two words here", "a" * 65, "x\r\nSet-Cookie: y=1", "<script>"):
        made = client.get("/healthz", HTTP_X_REQUEST_ID=sent)["X-Request-ID"]
        assert re.fullmatch(r"[0-9a-f]{32}", made), sent
    first, second = (client.get("/healthz")["X-Request-ID"] for _ in range(2))
    assert first != second


def test_json_lines_parse_carry_the_id_and_mask_secrets(client, console):
    handler, stream = console
    handler.setFormatter(JsonFormatter())
    token = secrets.token_urlsafe(32)
    response = client.get(f"/s/{token}/")
    assert response.status_code == 404
    logging.getLogger("tournament").warning("outside a request")

    lines = [json.loads(line) for line in stream.getvalue().splitlines()]
    assert token not in stream.getvalue()
    inside, outside = lines[0], lines[-1]
    assert set(inside) >= {"time", "level", "logger", "message", "request_id"}
    assert inside["level"] == "WARNING"
    assert inside["logger"] == "django.request"
    assert inside["message"] == "Not Found: /s/…/"
    assert inside["request_id"] == response["X-Request-ID"]
    assert inside["status_code"] == 404
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00", inside["time"])
    assert outside["message"] == "outside a request"
    assert outside["request_id"] is None


@override_settings(DEBUG=False, ROOT_URLCONF="tests.site.venue_urls")
@override_settings(TRUSTED_PROXIES=["127.0.0.1"])
def test_a_server_error_shows_its_id_for_the_operator_and_logs_it_with_the_traceback(console):
    handler, stream = console
    handler.setFormatter(JsonFormatter())
    client = Client(raise_request_exception=False)
    response = client.get("/broken/", HTTP_X_REQUEST_ID="proxy-id-500-abcdef")
    assert response.status_code == 500
    assert "Voor de beheerder van de site: foutcode proxy-id-500-abcdef." in response.text
    [line] = [json.loads(line) for line in stream.getvalue().splitlines()]
    assert (line["level"], line["request_id"]) == ("ERROR", "proxy-id-500-abcdef")
    assert line["message"] == "Internal Server Error: /broken/"
    assert line["exception"].startswith("Traceback")
