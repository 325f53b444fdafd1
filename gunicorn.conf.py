"""gunicorn's settings for every HTTP server of the site: `make run` (scripts/dev.py), the scale-out
demo and the container image. The address and the number of workers are given on the command line; gunicorn also reads this file
by itself when started from the repository's root."""

worker_class = "gthread"
threads = 4
# The site answers an over-long query with a JSON 414 (gunicorn's own limit answers HTML).
limit_request_line = 0
accesslog = "-"
# No control socket: its default path is one per user, so a second site on the machine (another
# `make run`, `make test`'s servers) would take it over and stopping one would remove the other's.
control_socket_disable = True
