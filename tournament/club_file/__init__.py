"""A club's backup: everything the club has in one zip (``docs/club-file.md``)."""
