#!/usr/bin/env bash
# Lighthouse scores for the home page, the search page and one listing page, desktop and mobile.
# Run by hand against a running site (not part of `make test`):
#   scripts/lighthouse.sh [BASE_URL]            (default http://127.0.0.1:8000)
# Serve the built site first (npm run build in frontend/, manage.py collectstatic, then
# `python -m whitenoise.compress staticfiles` as production's storage does, gunicorn with DJANGO_ENV=development and
# DEBUG=false) so the pages load what production loads, compressed. Uses Chromium (CHROME_PATH, default
# /usr/bin/chromium) and Lighthouse 12.8 from the npm registry, installed on first use under .data/lighthouse
# (kept out of the front end's dependencies so `make test` does not install it); no browser is downloaded.
# On a machine that cannot reach the map's tile server, serve with MAP_TILE_URL=/static/img/blank-tile.png
# (a plain local tile): failed tile loads are console errors, which cost the best-practices score.
# Environment: LISTING_PATH (default: the first listing linked from /property-listing),
# LIGHTHOUSE_OUT (where the JSON reports go, default /tmp/lighthouse).
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
BASE="${1:-http://127.0.0.1:8000}"
BASE="${BASE%/}"
OUT="${LIGHTHOUSE_OUT:-/tmp/lighthouse}"
LIGHTHOUSE="${LIGHTHOUSE_BIN:-$ROOT/.data/lighthouse/node_modules/.bin/lighthouse}"
if [ -z "${LIGHTHOUSE_BIN:-}" ] && [ ! -x "$LIGHTHOUSE" ]; then
  npm install --prefix "$ROOT/.data/lighthouse" --no-audit --no-fund --silent lighthouse@12.8.2
fi
export CHROME_PATH="${CHROME_PATH:-/usr/bin/chromium}"
CHROME_FLAGS="--headless --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking --disable-component-update --disable-sync"

[ -x "$LIGHTHOUSE" ] || { echo "lighthouse not found at $LIGHTHOUSE (set LIGHTHOUSE_BIN or check the npm registry)" >&2; exit 1; }
[ -x "$CHROME_PATH" ] || { echo "Chromium not found at $CHROME_PATH" >&2; exit 1; }

if [ -z "${LISTING_PATH:-}" ]; then
  LISTING_PATH="$(curl -fsS "$BASE/property-listing" | grep -o 'href="/listing-details/[^"]*"' | head -1 | cut -d'"' -f2)"
  [ -n "$LISTING_PATH" ] || { echo "no listing linked from $BASE/property-listing; set LISTING_PATH" >&2; exit 1; }
fi

mkdir -p "$OUT"
printf '%-8s %-45s %5s %5s %5s %5s\n' "form" "page" "perf" "a11y" "bp" "seo"
for form in desktop mobile; do
  preset=()
  [ "$form" = desktop ] && preset=(--preset=desktop)
  for path in / /property-listing "$LISTING_PATH"; do
    name="$(printf '%s' "$path" | tr -c 'a-zA-Z0-9-' '_')"
    report="$OUT/${form}${name}.json"
    "$LIGHTHOUSE" "$BASE$path" "${preset[@]}" --quiet --output=json --output-path="$report" \
      --only-categories=performance,accessibility,best-practices,seo \
      --chrome-flags="$CHROME_FLAGS" >/dev/null 2>"$report.log" || {
      echo "lighthouse failed for $path ($form): see $report.log" >&2
      continue
    }
    node -e '
      const r = require(process.argv[1]);
      const s = (k) => (r.categories[k].score === null ? "-" : Math.round(r.categories[k].score * 100));
      const f = (k) => String(s(k)).padStart(5);
      console.log(process.argv[2].padEnd(8), process.argv[3].padEnd(45),
        f("performance"), f("accessibility"), f("best-practices"), f("seo"));
      for (const [key, cat] of Object.entries(r.categories))
        for (const ref of cat.auditRefs) {
          const a = r.audits[ref.id];
          if (ref.weight > 0 && a.score !== null && a.score < 0.9)
            console.log("".padEnd(10) + key + ": " + ref.id + " (" + a.score + ") " + (a.displayValue || ""));
        }
    ' "$report" "$form" "$path"
  done
done
echo "JSON reports in $OUT"
