#!/usr/bin/env python
"""Django's command-line utility for administrative tasks (``bollen manage`` in an installed
site does the same)."""

import sys


def main() -> None:
    from bollen.cli import django_command

    sys.exit(django_command(sys.argv))


if __name__ == "__main__":
    main()
