"""Tournaments: the front page's list, creating one, its page and its settings."""
