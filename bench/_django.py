"""Start Django for a benchmark on a fresh database (a temporary SQLite file by default).

Set DATABASE_URL to benchmark on PostgreSQL; the benchmark then creates and drops its own
database next to the one named there.
"""

import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def setup() -> None:
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bollen.settings")
    os.environ.setdefault("SECRET_KEY", "benchmark-only-secret-key-0123456789-abcdefghijklmnop")
    if "DATABASE_URL" not in os.environ:
        folder = tempfile.mkdtemp(prefix="bollen-bench-")
        os.environ["DATABASE_URL"] = f"sqlite:///{folder}/bench.sqlite3"
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0)
