"""Project plumbing: settings (production and test), the root URLs, WSGI, the environment."""
