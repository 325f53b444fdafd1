# The two commands a newcomer needs: `make run` and `make test`.
SHELL := /bin/bash
PYTHON_VERSION := $(shell cat .python-version)
PY := .venv/bin/python
# Unset, DJANGO_ENV means production (which needs real keys): the developer targets say development.
export DJANGO_ENV ?= development
SERVICES := $(PY) scripts/services.py run
# `make run` serves this database; each database is its own instance (INSTANCE_NAME, docs/deployment.md),
# so `make run DATABASE=other PORT=8100` runs a second site beside the first on the same Redis.
DATABASE ?= spacemarket

.PHONY: run test venv deps frontend lint check schema bench scale-demo clean

run: deps frontend
	$(SERVICES) --database $(DATABASE) -- $(PY) scripts/dev.py

test: deps frontend
	$(SERVICES) --database spacemarket -- bash scripts/test.sh

venv: .venv/.installed

.venv/.installed: requirements.txt requirements-dev.txt .python-version
	@bash scripts/bootstrap.sh
	@touch $@

deps: venv frontend/node_modules/.installed

frontend/node_modules/.installed: $(wildcard frontend/package.json frontend/package-lock.json)
	@if [ -f frontend/package.json ]; then cd frontend && npm ci --no-audit --no-fund; fi
	@mkdir -p frontend/node_modules && touch $@

frontend: frontend/node_modules/.installed
	@if [ -f frontend/package.json ]; then cd frontend && npm run build; fi

lint: venv
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .

schema: venv
	$(SERVICES) -- $(PY) manage.py spectacular --file docs/openapi.yaml --validate
	$(PY) manage.py frontend_constants

bench: deps
	BENCH_STATISTICS=0 $(SERVICES) --database spacemarket_bench -- $(PY) scripts/bench.py
	$(SERVICES) --database spacemarket_bench -- $(PY) scripts/bench_statistics.py
	$(SERVICES) --database spacemarket_bench -- $(PY) scripts/bench_people.py
	$(SERVICES) --database spacemarket_bench -- $(PY) scripts/bench_chat.py
	$(SERVICES) --database spacemarket_bench -- $(PY) scripts/bench_calendars.py

# The site on 2 gunicorn, 2 daphne, 2 Celery workers and 1 beat, checked end to end (docs/deployment.md).
scale-demo: deps
	$(SERVICES) --database spacemarket_scale -- $(PY) scripts/scale_demo.py

clean:
	rm -rf .venv staticfiles static/dist frontend/node_modules .cache
