# Gunicorn's settings for the Bollen site (README, "Running a large event"):
#     .venv/bin/gunicorn -c deploy/gunicorn.conf.py bollen.wsgi
# Command-line options given as well win over these.

# Every address of the machine: the phones on the club's wifi talk to it directly (the large
# event, deploy/bollen.service). Behind nginx the hosted site's unit binds 127.0.0.1:8000 with
# --bind (deploy/bollen-hosted.service), so nothing but the proxy reaches gunicorn.
bind = "0.0.0.0:8000"
workers = 4
timeout = 60

# The access log, on standard output (journalctl -u bollen shows it), with the secrets of
# table links (/s/...) and invitations (/join/...) masked in every line.
accesslog = "-"
logger_class = "tournament.venue.gunicorn_logging.MaskedLogger"
# Gunicorn's usual line and the request's id last (the one in the site's own lines and in
# nginx's log). LOG_FORMAT=json in the environment makes every line a JSON object instead.
access_log_format = (
    '%(h)s %(l)s %(u)s %(t)s "%(r)s" %(s)s %(b)s "%(f)s" "%(a)s" %({x-request-id}o)s'
)

# Requests larger than a sheet save or an import are refused before the application reads
# them (the application refuses bodies over REQUEST_MAX_BYTES too): the request line and
# headers are bounded here.
limit_request_line = 8190
limit_request_fields = 100
limit_request_field_size = 8190

# No control socket (gunicorn's "gunicornc"): nothing here uses it, and under systemd its
# default folder in the home directory is not writable, which only adds a warning at start.
control_socket_disable = True
