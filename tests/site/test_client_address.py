"""The visitor's address behind a proxy: ``X-Real-IP`` is believed only from an address in
``TRUSTED_PROXIES``, and only when it is an address. (nginx in front, for real:
tests/site/test_https_proxy.py.)"""

from django.http import HttpResponse
from django.test import override_settings

from tournament.venue.proxy import ClientAddressMiddleware


def _seen(rf, remote: str, **headers: str) -> str:
    request = rf.get("/", REMOTE_ADDR=remote, **headers)
    ClientAddressMiddleware(lambda request: HttpResponse())(request)
    return request.META["REMOTE_ADDR"]


def test_without_trusted_proxies_the_header_is_ignored(rf):
    assert _seen(rf, "127.0.0.1", HTTP_X_REAL_IP="203.0.113.9") == "127.0.0.1"


@override_settings(TRUSTED_PROXIES=["127.0.0.1", "::1", "not an address"])
def test_a_trusted_proxy_names_the_visitor_and_nobody_else_may(rf, caplog):
    assert _seen(rf, "127.0.0.1", HTTP_X_REAL_IP="198.51.100.7") == "198.51.100.7"
    assert _seen(rf, "::1", HTTP_X_REAL_IP=" 2001:db8::7 ") == "2001:db8::7"
    assert _seen(rf, "192.168.1.30", HTTP_X_REAL_IP="198.51.100.7") == "192.168.1.30"
    assert _seen(rf, "127.0.0.1") == "127.0.0.1"  # a probe on the machine itself
    assert _seen(rf, "127.0.0.1", HTTP_X_REAL_IP="198.51.100.7, 10.0.0.1") == "127.0.0.1"
    assert "X-Real-IP that is no address" in caplog.text
