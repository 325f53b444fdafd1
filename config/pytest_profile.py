"""A pytest plugin (pyproject's ``addopts``: ``-p config.pytest_profile``), loaded before Django's
settings are read: every pytest run uses the test profile, even from a shell that exported
``DJANGO_ENV=development`` for `make run`. Otherwise the tests would flush the development site's
Redis database and queue the outbox's effects to a broker no worker reads (effects run at once,
in the test, only in the test profile).

The settings read the profile from ``DJANGO_ENV`` alone: nothing else in the environment (such as
a ``PYTEST_VERSION`` left in a production service's environment) can switch a site to the test
profile, with its allowance for local feeds and its development keys.
"""

import os

os.environ["DJANGO_ENV"] = "test"
