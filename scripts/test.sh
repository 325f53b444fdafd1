#!/usr/bin/env bash
# Every check, against the PostgreSQL and Redis that scripts/services.py found or started.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=.venv/bin/python
export DJANGO_ENV=test

echo "== lint (ruff)"
$PY -m ruff check .
$PY -m ruff format --check .

echo "== apps import only downward (import-linter, .importlinter)"
.venv/bin/lint-imports --no-cache

echo "== no dead code (vulture: pyproject's [tool.vulture], reasons in scripts/vulture_whitelist.py)"
.venv/bin/vulture

echo "== no duplicated code of 8 lines or more (pylint's similarity checker, pyproject's [tool.pylint])"
.venv/bin/pylint apps config scripts

echo "== no module over 450 lines without its reason (scripts/module_size.py)"
$PY scripts/module_size.py

echo "== the decision records' index is up to date (docs/decisions/README.md)"
$PY scripts/decisions_index.py --check

echo "== migrations are up to date"
$PY manage.py makemigrations --check --dry-run

echo "== OpenAPI schema is up to date (docs/openapi.yaml)"
$PY manage.py spectacular --validate --file /tmp/openapi.$$.yaml
if ! diff -q docs/openapi.yaml /tmp/openapi.$$.yaml >/dev/null; then
  diff -u docs/openapi.yaml /tmp/openapi.$$.yaml | head -40
  echo "docs/openapi.yaml is stale: run 'make schema' and commit it." >&2
  rm -f /tmp/openapi.$$.yaml
  exit 1
fi
rm -f /tmp/openapi.$$.yaml

echo "== front-end constants match the server's policies (frontend/src/shared/constants.json)"
$PY manage.py frontend_constants --check

echo "== front-end API types match the schema (frontend/src/shared/api/schema.d.ts)"
(cd frontend && npx --no-install openapi-typescript ../docs/openapi.yaml --default-non-nullable false -o /tmp/schema.$$.d.ts >/dev/null)
if ! diff -q frontend/src/shared/api/schema.d.ts /tmp/schema.$$.d.ts >/dev/null; then
  echo "frontend/src/shared/api/schema.d.ts is stale: run 'cd frontend && npm run schema:types' and commit it." >&2
  rm -f /tmp/schema.$$.d.ts
  exit 1
fi
rm -f /tmp/schema.$$.d.ts

echo "== production settings pass check --deploy (and fail it without payment keys)"
PROD_ENV=(DJANGO_ENV=production SECRET_KEY="$($PY -c 'import secrets; print(secrets.token_urlsafe(64))')"
  ALLOWED_HOSTS=example.com VAPID_PUBLIC_KEY=example-public VAPID_PRIVATE_KEY=example-private)
env "${PROD_ENV[@]}" STRIPE_SECRET_KEY=sk_live_example STRIPE_WEBHOOK_SECRET=whsec_example \
  $PY manage.py check --deploy --fail-level WARNING
if env -u STRIPE_SECRET_KEY -u STRIPE_WEBHOOK_SECRET -u PAYMENT_GATEWAY "${PROD_ENV[@]}" $PY manage.py check --deploy >/dev/null 2>&1; then
  echo "check --deploy passed without payment keys: production would take no money." >&2
  exit 1
fi

echo "== embedded PostgreSQL and Redis from an empty folder: migrate, seed, /healthz, stop, nothing left (scripts/embedded_check.py)"
$PY scripts/embedded_check.py

if ! command -v chromium >/dev/null 2>&1 && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "== installing Chromium for the browser tests (Debian's package)"
  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; } \
    || echo "Chromium could not be installed: the browser tests will be skipped." >&2
fi

echo "== front-end types (tsc --noEmit)"
(cd frontend && npx --no-install tsc --noEmit)
echo "== front-end lint (ESLint: typescript-eslint, react-hooks, jsx-a11y, public/dashboard boundary)"
(cd frontend && npx --no-install eslint --max-warnings 0 .)
echo "== no duplicated front-end code of 8 lines and 70 tokens or more (jscpd, frontend/.jscpd.json)"
(cd frontend && npx --no-install jscpd)
echo "== front-end unit tests (vitest)"
(cd frontend && npx --no-install vitest run)

# Last, so the closing line of the run is a Python test summary. The browser tests run in a
# pytest run of their own: Playwright's sync API keeps an event loop on the worker's main
# thread for the whole session, which the websocket tests' async_to_sync cannot share.
BROWSER_TESTS=(apps/*/tests/browser)
echo "== Python tests"
$PY -m pytest -n 2 --dist loadfile -q "${BROWSER_TESTS[@]/#/--ignore=}"
echo "== Browser tests (headless Chromium)"
$PY -m pytest -n 2 --dist loadfile -q "${BROWSER_TESTS[@]}"
