"""`make bench`: measure the public search, the title search and the listing page on a large data set.

Starts gunicorn (2 sync workers, as in production) on the data set of DATABASE_URL (seeding it with
`manage.py seed_scale` when it holds fewer than BENCH_LISTINGS listings), then drives it from this
process with threads over keep-alive http.client connections to 127.0.0.1 only, each scenario for
a bounded time and number of requests. Next to each figure it measures the floor in the same run:
a minimal JSON view of the same server, and the raw SQL of the search run straight on PostgreSQL.
Writes docs/performance.md.

Environment: BENCH_PORT (8105), BENCH_SECONDS per scenario (4), BENCH_CLIENTS ("1,4"),
BENCH_LISTINGS (100000).
"""

from __future__ import annotations

import http.client
import json
import os
import platform
import statistics
import subprocess
import sys
import threading
import time
from datetime import UTC, datetime
from pathlib import Path
from urllib.parse import quote

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
PY = str(ROOT / ".venv" / "bin" / "python")
PORT = int(os.environ.get("BENCH_PORT", "8105"))
SECONDS = float(os.environ.get("BENCH_SECONDS", "4"))
CLIENTS = [int(n) for n in os.environ.get("BENCH_CLIENTS", "1,4").split(",")]
LISTINGS = int(os.environ.get("BENCH_LISTINGS", "100000"))
MAX_REQUESTS = 20_000
SPEC = "filters[status]=approved&filters[isActive]=true&filters[availability]=available&filters[isDeleted]=false"

os.environ.setdefault("DJANGO_ENV", "development")
os.environ["DEBUG"] = "false"
os.environ["DJANGO_SETTINGS_MODULE"] = "scripts.bench_settings"


def manage(*args: str) -> None:
    subprocess.run([PY, "manage.py", *args], cwd=ROOT, check=True, env={**os.environ})


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(share * (len(ordered) - 1))))
    return ordered[index]


def drive(call_factory, clients: int) -> dict:
    """Run ``call()`` (one request) from ``clients`` threads for SECONDS; latencies in ms."""
    latencies: list[float] = []
    errors = [0]
    lock = threading.Lock()
    stop_at = time.perf_counter() + SECONDS

    def worker(index: int) -> None:
        call = call_factory(index)
        mine, failed = [], 0
        while time.perf_counter() < stop_at and len(mine) < MAX_REQUESTS // clients:
            started = time.perf_counter()
            ok = call()
            mine.append((time.perf_counter() - started) * 1000)
            failed += 0 if ok else 1
        with lock:
            latencies.extend(mine)
            errors[0] += failed

    started = time.perf_counter()
    threads = [threading.Thread(target=worker, args=(n,)) for n in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    elapsed = time.perf_counter() - started
    return {
        "n": len(latencies),
        "p50": statistics.median(latencies),
        "p95": percentile(latencies, 0.95),
        "p99": percentile(latencies, 0.99),
        "rps": len(latencies) / elapsed,
        "errors": errors[0],
    }


def http_calls(paths: list[str]):
    def factory(index: int):
        connection = http.client.HTTPConnection("127.0.0.1", PORT, timeout=30)
        counter = [index]

        def call() -> bool:
            path = paths[counter[0] % len(paths)]
            counter[0] += 1
            try:
                connection.request("GET", path, headers={"Host": "127.0.0.1"})
                response = connection.getresponse()
                response.read()
                return response.status == 200
            except (OSError, http.client.HTTPException):
                connection.close()
                return False

        return call

    return factory


def sql_calls(statements: list[tuple[str, list]]):
    import psycopg
    from django.conf import settings

    db = settings.DATABASES["default"]
    dsn = f"host={db['HOST']} port={db['PORT'] or 5432} dbname={db['NAME']} user={db['USER']}"
    if db.get("PASSWORD"):
        dsn += f" password={db['PASSWORD']}"

    def factory(index: int):
        connection = psycopg.connect(dsn, autocommit=True, options="-c pg_trgm.word_similarity_threshold=0.5")
        counter = [index]

        def call() -> bool:
            sql, params = statements[counter[0] % len(statements)]
            counter[0] += 1
            connection.execute(sql, params).fetchall()
            return True

        return call

    return factory


def wait_for_server(process: subprocess.Popen) -> None:
    for _ in range(100):
        if process.poll() is not None:
            raise SystemExit("gunicorn stopped; see its output above")
        try:
            connection = http.client.HTTPConnection("127.0.0.1", PORT, timeout=1)
            connection.request("GET", "/bench/floor")
            if connection.getresponse().status == 200:
                return
        except OSError:
            time.sleep(0.2)
    raise SystemExit("gunicorn did not answer")


def main() -> int:
    try:
        manage("migrate", "--noinput", "-v", "0")
    except subprocess.CalledProcessError:
        print("migrate failed; measuring the database as it is", flush=True)
    import django

    django.setup()
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from apps.listings import search as discovery
    from apps.listings.models import Listing

    have = Listing.objects.count()
    if have < LISTINGS:
        print(f"Seeding {LISTINGS - have:,} listings (manage.py seed_scale)…", flush=True)
        manage("seed_scale", "--count", str(LISTINGS - have))
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")
    total = Listing.objects.count()
    public = discovery.public_listings()
    slugs = list(public.order_by("?").values_list("slug", flat=True)[:200])
    cities = list(public.values_list("city", flat=True).distinct()[:12])

    def api(query: str) -> str:
        return (
            f"/api/listing/property-listing?page=1&limit=10&{SPEC}&{query}"
            if query
            else (f"/api/listing/property-listing?page=1&limit=10&{SPEC}")
        )

    def q(value: str) -> str:
        return quote(value, safe="")

    mixes = {
        "search: no filter": [api("")],
        "search: city (12 cities)": [api(f"filters[city]={q(city)}") for city in cities],
        "search: type + price range": [
            api("filters[propertyType]=eventSpace&filters[minPrice]=50&filters[maxPrice]=200&filters[period]=hourly"),
            api("filters[propertyType]=officeSpace&filters[maxPrice]=60&filters[period]=daily"),
        ],
        "search: amenities + guests": [
            api(f"filters[amenities]={q(json.dumps(['Wi-Fi', 'Projector']))}&filters[guests]=50"),
            api(f"filters[amenities]={q(json.dumps(['Parking']))}&filters[facilities]={q(json.dumps(['Kitchen']))}"),
        ],
        "search: map box + dates": [
            api(
                f"filters[bounds]={q('[43.5,-79.6,43.8,-79.1]')}&filters[startDate]=2030-03-04&filters[endDate]=2030-03-06"
            ),
            api(f"filters[bounds]={q('[51.3,-0.5,51.7,0.3]')}&filters[startDate]=2030-03-09"),
        ],
        "search: title (navbar)": [api(f"filters[title]={word}") for word in ("garden", "harbour", "galery", "loft")],
        "search: city, page 5": [api(f"filters[city]={q(city)}").replace("page=1", "page=5") for city in cities],
        "title search (search-titles)": [
            f"/api/listing/search-titles?q={q(word)}" for word in ("sun", "harbour gal", "galery", "roof", "quiet m")
        ],
        "listing-details page": [f"/listing-details/{slug}" for slug in slugs],
        "category city page (HTML)": [f"/coworking-spaces/{city.lower().replace(' ', '-')}" for city in cities],
    }

    # Raw SQL of the search: the page query and its count, as Django sends them.
    from apps.listings.search import CARD_FIELDS, SearchFilters

    raw_mixes = {
        "raw SQL: no filter, page + count": [{}],
        "raw SQL: city, page + count": [{"city": city} for city in cities],
        "raw SQL: title, page + count": [{"title": word} for word in ("garden", "harbour", "loft")],
    }
    raw_statements: dict[str, list[tuple[str, list]]] = {}
    for name, raws in raw_mixes.items():
        items = []
        for raw in raws:
            queryset = discovery.search(SearchFilters.parse(raw))
            sql, params = queryset.values(*CARD_FIELDS)[:10].query.sql_with_params()
            items.append((sql, list(params)))
            inner, inner_params = queryset.order_by().values("id").query.sql_with_params()
            items.append((f"SELECT COUNT(*) FROM ({inner}) AS matches", list(inner_params)))
        raw_statements[name] = items

    # Queries per request, measured in this process for a small and a full page.
    client = Client()
    query_counts = {}
    for name, paths in mixes.items():
        with CaptureQueriesContext(connection) as captured:
            client.get(paths[0], headers={"host": "127.0.0.1"})
        query_counts[name] = len(captured)

    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "scripts.bench_settings", "DEBUG": "false"}
    server = subprocess.Popen(
        [
            str(ROOT / ".venv/bin/gunicorn"),
            "config.wsgi",
            "-w",
            "2",
            "-b",
            f"127.0.0.1:{PORT}",
            "--log-level",
            "warning",
        ],
        cwd=ROOT,
        env=env,
    )
    results: list[tuple[str, int, dict]] = []
    try:
        wait_for_server(server)
        floor_paths = ["/bench/floor"]
        for clients in CLIENTS:
            for name, paths in {"floor: minimal JSON view": floor_paths, **mixes}.items():
                # warm-up: every path once per worker
                warm = http_calls(paths)(0)
                for _ in range(min(len(paths) * 2, 60)):
                    warm()
                result = drive(http_calls(paths), clients)
                results.append((name, clients, result))
                print(
                    f"{clients}c  {name:<34} p50 {result['p50']:6.2f}  p95 {result['p95']:6.2f}  "
                    f"p99 {result['p99']:6.2f} ms  {result['rps']:7.0f} req/s  errors {result['errors']}",
                    flush=True,
                )
            for name, items in raw_statements.items():
                result = drive(sql_calls(items), clients)
                results.append((name, clients, result))
                print(
                    f"{clients}c  {name:<34} p50 {result['p50']:6.2f}  p95 {result['p95']:6.2f}  "
                    f"p99 {result['p99']:6.2f} ms  {result['rps']:7.0f} stmt/s",
                    flush=True,
                )
    finally:
        server.terminate()
        server.wait(10)

    write_report(total, results, query_counts)
    return 0


def write_report(total: int, results, query_counts: dict) -> None:
    lines = [
        "# Performance",
        "",
        f"Measured by `make bench` (scripts/bench.py) on {datetime.now(UTC):%Y-%m-%d %H:%M} UTC: "
        f"{total:,} listings, gunicorn with 2 sync workers, {os.cpu_count()} CPU cores, "
        f"Python {platform.python_version()}, load from threads on keep-alive connections over 127.0.0.1, "
        f"{SECONDS:g} s per scenario after a warm-up. Latencies in milliseconds.",
        "",
        "| scenario | clients | p50 | p95 | p99 | req/s | errors |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for name, clients, result in results:
        lines.append(
            f"| {name} | {clients} | {result['p50']:.2f} | {result['p95']:.2f} | {result['p99']:.2f} | "
            f"{result['rps']:.0f} | {result['errors']} |"
        )
    lines += [
        "",
        "The raw SQL rows run the search's own SQL (the page of ten and, as a separate statement, its",
        "COUNT) straight on PostgreSQL from the same threads, alternating the two: a search costs about",
        "one of each. The floor row is a plain JsonResponse from the same gunicorn.",
        "",
        "## SQL queries per request",
        "",
        "| scenario | queries |",
        "|---|---:|",
        *(f"| {name} | {count} |" for name, count in query_counts.items()),
        "",
    ]
    path = ROOT / "docs" / "performance.md"
    body = "\n".join(lines)
    notes = ROOT / "docs" / "performance-notes.md"
    if notes.exists():
        body += "\n" + notes.read_text()
    path.write_text(body)
    print(f"Wrote {path}")


if __name__ == "__main__":
    sys.exit(main())
