"""WSGI entry point (``manage.py serve`` with waitress, or ``gunicorn bollen.wsgi``).

Before gunicorn, ``manage.py check_database`` says plainly when the database cannot be reached.
"""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bollen.settings")

application = get_wsgi_application()

from tournament.venue.readiness import require_secret_key  # noqa: E402  (needs the settings)

require_secret_key()
