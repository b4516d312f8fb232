# Gunicorn's settings for the Bollen site (README, "Running a large event"):
#     .venv/bin/gunicorn -c deploy/gunicorn.conf.py bollen.wsgi
# Command-line options given as well win over these.

bind = "0.0.0.0:8000"
workers = 4
timeout = 60

# The access log, on standard output (journalctl -u bollen shows it), with the secrets of
# table links (/s/...) and invitations (/join/...) masked in every line.
accesslog = "-"
logger_class = "tournament.venue.gunicorn_logging.MaskedLogger"

# Requests larger than a sheet save or an import are refused before the application reads
# them (the application refuses bodies over REQUEST_MAX_BYTES too): the request line and
# headers are bounded here.
limit_request_line = 8190
limit_request_fields = 100
limit_request_field_size = 8190
