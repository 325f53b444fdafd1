#!/usr/bin/env bash
# Every check, against the PostgreSQL and Redis that scripts/services.py found or started.
# At the end (also when a check fails) a table gives each stage's time; pytest lists its slowest tests.
# The front-end unit tests run beside the other checks: they need no database and take the longest.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=.venv/bin/python
export DJANGO_ENV=test
TIMES=$(mktemp)
LOGS=$(mktemp -d)
RUN_STARTED=$EPOCHREALTIME

# Seconds since $1 (an $EPOCHREALTIME), to a tenth.
since() { awk -v a="$1" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }'; }

print_times() {
  local status=$?
  echo
  echo "== time per stage (seconds)"
  awk -F'\t' '{ printf "%-72s %8.1f\n", $1, $2 }' "$TIMES"
  [ "$status" = 0 ] || printf "%-72s %8s\n" "${CURRENT_STAGE:-?}" "FAILED"
  printf "%-72s %8.1f\n" "whole run" "$(since "$RUN_STARTED")"
  if [ -n "${BESIDE_PID:-}" ]; then pkill -P "$BESIDE_PID" 2>/dev/null || true; fi
  [ -n "${SUMMARY:-}" ] && printf "%b" "$SUMMARY"
  rm -rf "$TIMES" "$LOGS"
  return $status
}
trap print_times EXIT

# stage NAME COMMAND...: run one check in the foreground and record its time.
stage() {
  local name=$1 started
  shift
  echo "== $name"
  CURRENT_STAGE=$name
  started=$EPOCHREALTIME
  "$@"
  printf "%s\t%s\n" "$name" "$(since "$started")" >>"$TIMES"
}

# beside NAME FUNCTION: start a check that needs no database and writes nothing another check reads
# (the front-end unit tests, the longest of them), while the others run; await_beside waits for it.
beside() {
  BESIDE_NAME=$1 BESIDE_FN=$2
  echo "== $BESIDE_NAME: started beside the next checks"
  (started=$EPOCHREALTIME; code=0; "$BESIDE_FN" >"$LOGS/beside.log" 2>&1 || code=$?
    printf "%s (beside the checks above)\t%s\n" "$BESIDE_NAME" "$(since "$started")" >"$LOGS/beside.time"; exit $code) &
  BESIDE_PID=$!
}
await_beside() {
  local code=0
  CURRENT_STAGE=$BESIDE_NAME
  wait "$BESIDE_PID" || code=$?
  BESIDE_PID=""
  echo "== $BESIDE_NAME"
  cat "$LOGS/beside.log"
  cat "$LOGS/beside.time" >>"$TIMES"
  return $code
}

vitest() { (cd frontend && npx --no-install vitest run); }
beside "front-end unit tests (vitest)" vitest

stage "lint (ruff)" bash -c "$PY -m ruff check . && $PY -m ruff format --check ."
stage "apps import only downward (import-linter, .importlinter)" .venv/bin/lint-imports --no-cache
stage "no dead code (vulture: pyproject's [tool.vulture], reasons in scripts/vulture_whitelist.py)" .venv/bin/vulture
stage "no duplicated code of 8 lines or more (pylint's similarity checker, pyproject's [tool.pylint])" \
  .venv/bin/pylint apps config scripts
stage "no module over 450 lines without its reason (scripts/module_size.py)" $PY scripts/module_size.py
stage "the decision records' index is up to date (docs/decisions/README.md)" $PY scripts/decisions_index.py --check
stage "front-end types (tsc --noEmit)" bash -c "cd frontend && npx --no-install tsc --noEmit"
stage "front-end lint (ESLint: typescript-eslint, react-hooks, jsx-a11y, public/dashboard boundary)" \
  bash -c "cd frontend && npx --no-install eslint --max-warnings 0 ."
stage "no duplicated front-end code of 8 lines and 70 tokens or more (jscpd, frontend/.jscpd.json)" \
  bash -c "cd frontend && npx --no-install jscpd"

stage "migrations are up to date" $PY manage.py makemigrations --check --dry-run

schema() {
  $PY manage.py spectacular --validate --file /tmp/openapi.$$.yaml
  if ! diff -q docs/openapi.yaml /tmp/openapi.$$.yaml >/dev/null; then
    diff -u docs/openapi.yaml /tmp/openapi.$$.yaml | head -40
    echo "docs/openapi.yaml is stale: run 'make schema' and commit it." >&2
    rm -f /tmp/openapi.$$.yaml
    return 1
  fi
  rm -f /tmp/openapi.$$.yaml
}
stage "OpenAPI schema is up to date (docs/openapi.yaml)" schema

stage "front-end constants match the server's policies (frontend/src/shared/constants.json)" \
  $PY manage.py frontend_constants --check

schema_types() {
  (cd frontend && npx --no-install openapi-typescript ../docs/openapi.yaml --default-non-nullable false -o /tmp/schema.$$.d.ts >/dev/null)
  if ! diff -q frontend/src/shared/api/schema.d.ts /tmp/schema.$$.d.ts >/dev/null; then
    echo "frontend/src/shared/api/schema.d.ts is stale: run 'cd frontend && npm run schema:types' and commit it." >&2
    rm -f /tmp/schema.$$.d.ts
    return 1
  fi
  rm -f /tmp/schema.$$.d.ts
}
stage "front-end API types match the schema (frontend/src/shared/api/schema.d.ts)" schema_types

deploy_check() {
  local prod_env=(DJANGO_ENV=production SECRET_KEY="$($PY -c 'import secrets; print(secrets.token_urlsafe(64))')"
    ALLOWED_HOSTS=example.com VAPID_PUBLIC_KEY=example-public VAPID_PRIVATE_KEY=example-private)
  env "${prod_env[@]}" STRIPE_SECRET_KEY=sk_live_example STRIPE_WEBHOOK_SECRET=whsec_example \
    $PY manage.py check --deploy --fail-level WARNING
  if env -u STRIPE_SECRET_KEY -u STRIPE_WEBHOOK_SECRET -u PAYMENT_GATEWAY "${prod_env[@]}" $PY manage.py check --deploy >/dev/null 2>&1; then
    echo "check --deploy passed without payment keys: production would take no money." >&2
    return 1
  fi
}
stage "production settings pass check --deploy (and fail it without payment keys)" deploy_check

stage "embedded PostgreSQL and Redis from an empty folder: migrate, seed, /healthz, stop, nothing left (scripts/embedded_check.py)" \
  $PY scripts/embedded_check.py

if ! command -v chromium >/dev/null 2>&1 && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "== installing Chromium for the browser tests (Debian's package)"
  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; } \
    || echo "Chromium could not be installed: the browser tests will be skipped." >&2
fi

await_beside

# pytest's closing line, kept for the summary at the very end.
pytest_stage() {
  local name=$1 log=$LOGS/pytest.$RANDOM
  shift
  stage "$name" bash -c 'set -o pipefail; "$@" 2>&1 | tee "$0"' "$log" "$@"
  SUMMARY+="$name: $(grep -E '^=+ .*(passed|failed).* =+$|^[0-9]+ (passed|failed)' "$log" | tail -1)\n"
}

# Last, so the closing lines of the run are the test summaries. The browser tests run in a
# pytest run of their own: Playwright's sync API keeps an event loop on the worker's main
# thread for the whole session, which the websocket tests' async_to_sync cannot share.
BROWSER_TESTS=(apps/*/tests/browser)
SUMMARY=""
pytest_stage "Python tests" $PY -m pytest -n 2 --dist loadfile -q --durations=25 "${BROWSER_TESTS[@]/#/--ignore=}"
pytest_stage "Browser tests (headless Chromium)" $PY -m pytest -n 2 --dist loadfile -q --durations=25 "${BROWSER_TESTS[@]}"
