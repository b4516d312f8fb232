"""Django's SQLite backend, with the database file readable by its owner only."""
