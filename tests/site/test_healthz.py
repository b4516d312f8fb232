"""``/healthz`` for the proxy's and the monitoring's probes: 200 with a plain JSON body when the
database answers and has every migration, 503 otherwise; no sign-in, any Host, no redirect to
HTTPS, no secret in the body. On SQLite and on PostgreSQL (a migration not applied, for real,
on a throwaway database: tests/site/test_https_proxy.py)."""

import json

import pytest
from django.db import OperationalError, connection, connections
from django.db.migrations.recorder import MigrationRecorder

from tournament.venue import health

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh_answer():
    health.forget_migrations_applied()
    yield
    health.forget_migrations_applied()


def _secrets() -> list[str]:
    config = connection.settings_dict
    found = [config.get("NAME"), config.get("HOST"), config.get("USER"), config.get("PASSWORD")]
    return [str(value) for value in found if value and len(str(value)) > 3]


def test_a_healthy_site_answers_200_with_plain_json_and_no_secrets(client):
    response = client.get("/healthz", HTTP_HOST="probe.invalid")  # not in ALLOWED_HOSTS
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert response["Cache-Control"] == "no-store"
    assert response.json() == {"database": "ok", "migrations": "ok"}
    for secret in _secrets():
        assert secret not in response.content.decode()
    assert client.head("/healthz/").status_code == 200
    assert client.post("/healthz").status_code == 405


def test_once_applied_a_probe_costs_one_query(client, django_assert_num_queries):
    assert client.get("/healthz").status_code == 200
    with django_assert_num_queries(1):  # SELECT 1; the migrations are not walked again
        assert client.get("/healthz").status_code == 200


def test_under_https_a_plain_http_probe_is_answered_not_redirected(client, settings):
    settings.SECURE_SSL_REDIRECT = True
    assert client.get("/").status_code == 301
    assert client.get("/healthz").status_code == 200


def test_a_migration_not_applied_answers_503(client):
    recorder = MigrationRecorder(connection)
    last = max(name for app, name in recorder.applied_migrations() if app == "tournament")
    recorder.record_unapplied("tournament", last)  # undone with the test's transaction
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json() == {"database": "ok", "migrations": "pending"}


def test_an_unreachable_database_answers_503_itself(client, monkeypatch):
    def refused(self, *args, **kwargs):
        raise OperationalError("connection refused: host db.internal port 5432")

    monkeypatch.setattr(type(connections["default"]), "ensure_connection", refused)
    response = client.get("/healthz")
    assert response.status_code == 503
    body = response.content.decode()
    assert json.loads(body) == {"database": "unreachable", "migrations": "unknown"}
    assert "db.internal" not in body and "5432" not in body
