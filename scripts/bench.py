# Over 450 lines: one command that seeds, measures and reports every figure of `make bench`, in that order.
"""`make bench`: every figure the issues ask for, measured over HTTP on the large data set.

Seeds what is missing on the database of DATABASE_URL (100,000 listings with ``seed_scale``,
1,000,000 bookings with ``seed_scale_bookings``, 2,000,000 notifications with
``seed_scale_notifications``), starts gunicorn (as production runs it: 4 workers of 4 threads, ``BENCH_GUNICORN``) and daphne (the
websockets), and drives them from this process with threads over 127.0.0.1 only. Every scenario
is bounded in time (BENCH_SECONDS) and in number of requests (MAX_REQUESTS).

Areas: public discovery (search as visitors produce it: a new query on every request for each kind,
anonymous and signed in, searches mixed with bookings and their stored-answer hit rate, listing pages
first visited and repeated; then the stored answers of repeated addresses), bookings
(quote, creation throughput with 16 clients on distinct slots, the race of 32 clients for one
slot, a year of availability), notifications (list, pending counters, websocket fan-out of a
booking approval), then the dashboard statistics (scripts/bench_statistics.py, when present).

Next to each GET scenario it measures its floor in the same run: the minimal JSON view of the
same server (``/bench/floor``), the same with one database round trip (``/bench/floor-db``),
and the SQL the request runs, captured in-process and replayed straight on PostgreSQL
("SQL only"). ``floor`` in the tables is ``floor-db`` p95 plus the SQL-only p95: what the request
would cost with no Django work at all. Writes docs/performance.md (keeping its hand-written
sections) and prints every figure.

Environment: BENCH_PORT (8105; daphne on +1, the statistics on +2), BENCH_SECONDS per scenario
(4), BENCH_CLIENTS ("1,4"), BENCH_LISTINGS (100000), BENCH_BOOKINGS (1000000),
BENCH_NOTIFICATIONS (2000000), BENCH_AREAS (all: "discovery,notifications,bookings,websocket"; "cold"
alone runs the floor and the new-query search rows and writes docs/bench/search-cold-<listings>.json,
the growth figures; an area left out keeps its section of the last run in docs/performance.md),
BENCH_STATISTICS (1: run scripts/bench_statistics.py), BENCH_GUNICORN (gunicorn's workers and threads,
"-w 4 --threads 4" as in production), BENCH_WORKER (the Celery worker's pool options, "-c 2"),
BENCH_VERBOSE (print each fan-out round).
"""

from __future__ import annotations

import asyncio
import http.client
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from datetime import time as clock
from pathlib import Path
from urllib.parse import quote

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
PY = str(ROOT / ".venv" / "bin" / "python")
PORT = int(os.environ.get("BENCH_PORT", "8105"))
WS_PORT = PORT + 1
SECONDS = float(os.environ.get("BENCH_SECONDS", "4"))
CLIENTS = [int(n) for n in os.environ.get("BENCH_CLIENTS", "1,4").split(",")]
LISTINGS = int(os.environ.get("BENCH_LISTINGS", "100000"))
BOOKINGS = int(os.environ.get("BENCH_BOOKINGS", "1000000"))
NOTIFICATIONS = int(os.environ.get("BENCH_NOTIFICATIONS", "2000000"))
AREAS_RUN = os.environ.get("BENCH_AREAS", "discovery,notifications,bookings,websocket").split(",")
MAX_REQUESTS = 20_000
# gunicorn as production runs it (docker/Dockerfile, docker/compose.yaml): 4 workers of 4 threads.
GUNICORN = os.environ.get("BENCH_GUNICORN", "-w 4 --threads 4")
WORKER = os.environ.get("BENCH_WORKER", "-c 2")
THREADS = int(GUNICORN.split("--threads")[1].split()[0]) if "--threads" in GUNICORN else 1
DAPHNE_LOG = Path(tempfile.gettempdir()) / f"bench-daphne-{WS_PORT}.log"
WORKER_LOG = Path(tempfile.gettempdir()) / f"bench-worker-{PORT}.log"
CREATE_CLIENTS, CREATE_PER_CLIENT = 16, 12
RACERS = 32
FANOUT_ROUNDS = 40
# Rounds run first and not counted: each gunicorn and Celery process answers its first approval
# cold (lazy imports, first query compilations), which a running server has long done.
FANOUT_WARMUP = 4
SPEC = "filters[status]=approved&filters[isActive]=true&filters[availability]=available&filters[isDeleted]=false"
HOST = {"Host": "127.0.0.1"}

# The bench measures the site as production runs it, whatever the calling shell exported: with
# DJANGO_ENV=test the settings turn persistent connections off (a new PostgreSQL connection per
# request, 15-20 ms on this machine under load), which is what made the first figures slow.
os.environ["DJANGO_ENV"] = "development"
os.environ["DEBUG"] = "false"
os.environ["DJANGO_SETTINGS_MODULE"] = "scripts.bench_settings"


# Issues 18 and 25's targets. Each applies to the scenarios whose name starts with ``prefix``, run with
# ``clients`` clients, and checks one figure of them: a latency in ms ("p50", "p95"), the rate
# ("rate", at least ``limit``), or p95 over the scenario's floor ("x floor").
@dataclass(frozen=True)
class Target:
    measure: str
    prefix: str
    clients: int
    stat: str
    limit: float

    @property
    def wording(self) -> str:
        if self.stat == "x floor":
            return f"p95 ≤ {self.limit:g} × floor"
        if self.stat == "rate":
            return f"≥ {self.limit:g}/s"
        return f"{self.stat} ≤ {self.limit:g} ms"

    def figure(self, row: dict) -> float | None:
        if self.stat == "x floor":
            return row["p95"] / row["floor"] if row.get("floor") else None
        return row["rps"] if self.stat == "rate" else row[self.stat]

    def met(self, row: dict) -> bool | None:
        value = self.figure(row)
        if value is None or not row["n"]:
            return None
        return value >= self.limit if self.stat == "rate" else value <= self.limit


TARGETS = [
    # Issue 25: search as users produce it, a new query on each request.
    Target("every search kind, a new query each request, 1 client", "search (new", 1, "x floor", 12.0),
    Target("every search kind, a new query each request, 4 clients", "search (new", 4, "p95", 40.0),
    Target("navbar title search, a new prefix each request", "title search (new prefix", 1, "x floor", 6.0),
    Target("listing page, first visit of a listing", "listing page: first visit", 1, "p95", 20.0),
    Target("stored answers, repeated address", "stored answer:", 1, "x floor", 2.0),
    Target("a year of availability", "availability", 1, "p95", 10.0),
    Target("notification list (any filter, any page)", "notification list", 1, "p95", 10.0),
    Target("pending counters (any role)", "pending-counter", 1, "p95", 10.0),
    Target("booking creation, 16 clients on distinct slots", "booking creation", CREATE_CLIENTS, "rate", 150.0),
    Target("booking creation, 16 clients on distinct slots", "booking creation", CREATE_CLIENTS, "p95", 150.0),
    Target("approving a booking", "approval request alone", 1, "p95", 40.0),
    Target("websocket fan-out of an approval to both open pages", "fan-out: approval to both", 1, "p50", 15.0),
    Target("websocket fan-out of an approval to both open pages", "fan-out: approval to both", 1, "p95", 40.0),
]
# Counted in-process on one warm approval (apps/payments/tests/test_write_costs.py asserts them).
APPROVAL_MAX_QUERIES, APPROVAL_MAX_REDIS = 12, 2


def targets_for(name: str, clients: int) -> list[Target]:
    return [t for t in TARGETS if name.startswith(t.prefix) and clients == t.clients]


def verdict(target: Target, row: dict) -> str:
    met = target.met(row)
    return "no figure" if met is None else ("met" if met else "missed")


def manage(*args: str) -> None:
    subprocess.run([PY, "manage.py", *args], cwd=ROOT, check=True, env={**os.environ})


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(share * (len(ordered) - 1))))
    return ordered[index]


def summary(latencies: list[float], elapsed: float, errors: int = 0) -> dict:
    if not latencies:
        return {"n": 0, "p50": 0.0, "p95": 0.0, "p99": 0.0, "rps": 0.0, "errors": errors}
    return {
        "n": len(latencies),
        "p50": statistics.median(latencies),
        "p95": percentile(latencies, 0.95),
        "p99": percentile(latencies, 0.99),
        "rps": len(latencies) / elapsed if elapsed else 0.0,
        "errors": errors,
    }


def drive(call_factory, clients: int, *, seconds: float | None = None, max_requests: int = MAX_REQUESTS) -> dict:
    """Run ``call()`` (one request; truthy when it succeeded, None when it has nothing left to do)
    from ``clients`` threads for ``seconds``, at most ``max_requests`` in all; latencies in ms."""
    latencies: list[float] = []
    errors = [0]
    lock = threading.Lock()
    stop_at = time.perf_counter() + (SECONDS if seconds is None else seconds)

    def worker(index: int) -> None:
        call = call_factory(index)
        mine, failed = [], 0
        while time.perf_counter() < stop_at and len(mine) < max_requests // clients:
            started = time.perf_counter()
            ok = call()
            if ok is None:
                break
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
    return summary(latencies, time.perf_counter() - started, errors[0])


def request(connection: http.client.HTTPConnection, method: str, path: str, body=None, headers=None):
    """One request on a keep-alive connection (reopened when the server closed it): (status, body)."""
    data = None if body is None else json.dumps(body).encode()
    all_headers = {**HOST, **(headers or {})}
    if data is not None:
        all_headers["Content-Type"] = "application/json"
    try:
        connection.request(method, path, body=data, headers=all_headers)
        response = connection.getresponse()
        return response.status, response.read()
    except (OSError, http.client.HTTPException):
        connection.close()
        return 0, b""


def http_calls(paths: list[str], *, token: str | None = None, ok=(200,)):
    headers = {"Authorization": f"Bearer {token}"} if token else {}

    def factory(index: int):
        connection = http.client.HTTPConnection("127.0.0.1", PORT, timeout=60)
        counter = [index]

        def call() -> bool:
            path = paths[counter[0] % len(paths)]
            counter[0] += 1
            return request(connection, "GET", path, headers=headers)[0] in ok

        return call

    return factory


def post_calls(path: str, bodies: list[dict], *, token: str | None = None, ok=(200,)):
    headers = {"Authorization": f"Bearer {token}"} if token else {}

    def factory(index: int):
        connection = http.client.HTTPConnection("127.0.0.1", PORT, timeout=60)
        counter = [index]

        def call() -> bool:
            body = bodies[counter[0] % len(bodies)]
            counter[0] += 1
            return request(connection, "POST", path, body, headers)[0] in ok

        return call

    return factory


def dsn() -> str:
    from django.conf import settings

    db = settings.DATABASES["default"]
    text = f"host={db['HOST']} port={db['PORT'] or 5432} dbname={db['NAME']} user={db['USER']}"
    return text + (f" password={db['PASSWORD']}" if db.get("PASSWORD") else "")


def sql_calls(batches: list[list[str]]):
    """Replay captured SQL (each batch: the statements of one request) on a connection of its own."""
    import psycopg
    from django.conf import settings

    options = settings.DATABASES["default"].get("OPTIONS", {}).get("options", "")

    def factory(index: int):
        connection = psycopg.connect(dsn(), autocommit=True, options=options)
        counter = [index]

        def call() -> bool:
            for sql in batches[counter[0] % len(batches)]:
                cursor = connection.execute(sql.encode())
                if cursor.description is not None:
                    cursor.fetchall()
            counter[0] += 1
            return True

        return call

    return factory


def wait_for(port: int, path: str, process: subprocess.Popen, name: str) -> None:
    for _ in range(150):
        if process.poll() is not None:
            raise SystemExit(f"{name} stopped; see its output above")
        try:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=1)
            connection.request("GET", path, headers=HOST)
            connection.getresponse().read()
            return
        except OSError:
            time.sleep(0.2)
    raise SystemExit(f"{name} did not answer")


def wait_for_server(process: subprocess.Popen) -> None:
    wait_for(PORT, "/bench/floor", process, "gunicorn")


def start_gunicorn(port: int = PORT) -> subprocess.Popen:
    return subprocess.Popen(
        [
            *(str(ROOT / ".venv/bin/gunicorn"), "config.wsgi", "-b", f"127.0.0.1:{port}", *GUNICORN.split()),
            *("--log-level", "warning", "--timeout", "120"),
        ],
        cwd=ROOT,
        env={**os.environ},
    )


def check_persistent_connections() -> dict:
    """Twenty requests to ``/bench/floor-db``: with CONN_MAX_AGE each worker keeps one connection."""
    connection = http.client.HTTPConnection("127.0.0.1", PORT, timeout=10)
    seen = [json.loads(request(connection, "GET", "/bench/floor-db")[1])["data"] for _ in range(20)]
    workers = {row["worker"] for row in seen}
    backends = {row["backend"] for row in seen}
    info = {"workers": len(workers), "backends": len(backends), "conn_max_age": seen[0]["connMaxAge"]}
    if info["conn_max_age"] in (0, None) or len(backends) > len(workers) * THREADS:
        raise SystemExit(f"gunicorn opens a database connection per request ({info}); check CONN_MAX_AGE")
    return info


# --- Preparing the data set --------------------------------------------------


def seed() -> dict:
    from django.db import connection

    from apps.bookings.models import Booking
    from apps.listings.models import Listing
    from apps.notifications.models import Notification

    if (have := Listing.objects.count()) < LISTINGS:
        print(f"Seeding {LISTINGS - have:,} listings (manage.py seed_scale)…", flush=True)
        manage("seed_scale", "--count", str(LISTINGS - have))
    if (have := Booking.objects.count()) < BOOKINGS:
        print(f"Seeding {BOOKINGS - have:,} bookings (manage.py seed_scale_bookings)…", flush=True)
        manage("seed_scale_bookings", "--count", str(BOOKINGS - have))
    if (have := Notification.objects.count()) < NOTIFICATIONS:
        print(f"Seeding {NOTIFICATIONS - have:,} notifications (manage.py seed_scale_notifications)…", flush=True)
        manage("seed_scale_notifications", "--count", str(NOTIFICATIONS - have))
    with connection.cursor() as cursor:
        # As autovacuum leaves a running database: statistics, and the visibility map that lets
        # the search's probes of amenities and offerings read their indexes only.
        cursor.execute("VACUUM ANALYZE")
    return {
        "listings": Listing.objects.count(),
        "bookings": Booking.objects.count(),
        "notifications": Notification.objects.count(),
    }


def capture_sql(paths: list[str], headers: dict | None = None) -> list[list[str]]:
    """The SQL each path runs once warm (totals cached), captured in-process, for the SQL-only floor."""
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    client = Client()
    batches = []
    for path in paths[:20]:
        client.get(path, headers={"host": "127.0.0.1", **(headers or {})})
        with CaptureQueriesContext(connection) as captured:
            client.get(path, headers={"host": "127.0.0.1", **(headers or {})})
        batches.append([query["sql"] for query in captured.captured_queries])
    return batches


def discovery_mixes() -> dict[str, list[str]]:
    from apps.listings import search as discovery

    public = discovery.public_listings()
    cities = list(public.values_list("city", flat=True).distinct()[:12])

    def api(query: str) -> str:
        return f"/api/listing/property-listing?page=1&limit=10&{SPEC}" + (f"&{query}" if query else "")

    def q(value: str) -> str:
        return quote(value, safe="")

    return {
        "stored answer: search, no filter": [api("")],
        "stored answer: search, city (12 cities)": [api(f"filters[city]={q(city)}") for city in cities],
        "stored answer: search, type + price range": [
            api("filters[propertyType]=eventSpace&filters[minPrice]=50&filters[maxPrice]=200&filters[period]=hourly"),
            api("filters[propertyType]=officeSpace&filters[maxPrice]=60&filters[period]=daily"),
        ],
        "stored answer: search, amenities + guests": [
            api(f"filters[amenities]={q(json.dumps(['Wi-Fi', 'Projector']))}&filters[guests]=50"),
            api(f"filters[amenities]={q(json.dumps(['Parking']))}&filters[facilities]={q(json.dumps(['Kitchen']))}"),
        ],
        "stored answer: search, map box + dates + filters": [
            api(
                f"filters[bounds]={q('[43.5,-79.6,43.8,-79.1]')}&filters[startDate]=2030-03-04&filters[endDate]=2030-03-06"
            ),
            api(f"filters[bounds]={q('[51.3,-0.5,51.7,0.3]')}&filters[startDate]=2030-03-09"),
            api(
                f"filters[bounds]={q('[43.5,-79.6,43.8,-79.1]')}&filters[startDate]=2030-03-11"
                "&filters[propertyType]=eventSpace&filters[guests]=20&filters[maxPrice]=300&filters[period]=hourly"
            ),
        ],
        "stored answer: search, title (navbar)": [
            api(f"filters[title]={word}") for word in ("garden", "harbour", "galery", "loft")
        ],
        "stored answer: search, city, page 5": [
            api(f"filters[city]={q(city)}").replace("page=1", "page=5") for city in cities
        ],
        "stored answer: title search (search-titles)": [
            f"/api/listing/search-titles?q={q(word)}" for word in ("sun", "harbour gal", "galery", "roof", "quiet m")
        ],
        "category city page (HTML)": [f"/coworking-spaces/{city.lower().replace(' ', '-')}" for city in cities],
    }


def bookable_event_spaces(count: int, *, exclude=()) -> list:
    from apps.listings.models import Listing

    return list(
        Listing.objects.filter(
            property_type="eventSpace",
            status="approved",
            is_active=True,
            is_deleted=False,
            availability="available",
            host__is_active=True,
            host__is_deleted=False,
        )
        .exclude(pk__in=exclude)
        .select_related("host")
        .order_by("?")[:count]
    )


def slots_for(listing, first_day: date, wanted: int) -> list[dict]:
    """Booking bodies for ``wanted`` distinct days of ``listing`` the pricing accepts (10:00-16:00)."""
    from apps.bookings import services
    from apps.bookings.models import Occupancy
    from apps.core.exceptions import DomainError

    bodies = []
    for offset in range(wanted * 4):
        day = first_day + timedelta(days=offset)
        try:
            services.booking_plan(
                listing=listing, check_in_date=day, check_out_date=day, start_time=clock(10), end_time=clock(16)
            )
        except DomainError:  # closed that day, below a minimum, …: try the next day
            continue
        if Occupancy.objects.filter(
            listing_id=listing.pk,
            active=True,
            hold__overlap=(
                datetime.combine(day - timedelta(days=1), clock(0), UTC),
                datetime.combine(day + timedelta(days=2), clock(0), UTC),
            ),
        ).exists():  # held by an earlier run or the seed: another day
            continue
        bodies.append(
            {
                "listingId": str(listing.pk),
                "checkInDate": day.isoformat(),
                "checkOutDate": day.isoformat(),
                "startTime": "10:00",
                "endTime": "16:00",
                "guests": 1,
            }
        )
        if len(bodies) == wanted:
            break
    return bodies


def renters(count: int) -> list:
    from apps.accounts.models import User

    return list(User.objects.filter(email__startswith="scale-renter-", role="renter", is_active=True)[:count])


def token_for(user) -> str:
    from apps.accounts.services import tokens_for

    return tokens_for(user)["token"]


def far_day() -> date:
    """A random day two to eleven months ahead (a space is bookable at most a year ahead);
    ``slots_for`` skips the days a listing already holds, so runs do not collide."""
    return date.today() + timedelta(days=random.randint(60, 330))


# --- Scenario runners ---------------------------------------------------------


class Run:
    def __init__(self) -> None:
        self.rows: list[dict] = []
        self.floor: dict[int, dict] = {}

    def add(
        self,
        area: str,
        name: str,
        clients: int,
        result: dict,
        *,
        sql: dict | None = None,
        unit="req/s",
        floor_only: bool = False,
        hits: dict | None = None,
    ):
        floor = None
        if sql is not None and clients in self.floor:
            floor = self.floor[clients]["p95"] + sql["p95"]
        elif floor_only and clients in self.floor:
            # A new query each time has no SQL of its own to replay: its floor is the JSON view
            # with one database round trip (issue 25's floor).
            floor = self.floor[clients]["p95"]
        row = {"area": area, "name": name, "clients": clients, **result, "unit": unit}
        row |= {"sql_p95": sql["p95"] if sql else None, "floor": floor, "hits": hits}
        row["targets"] = targets_for(name, clients)
        self.rows.append(row)
        extra = ""
        if row.get("hits") is not None:
            extra += f"  {hit_rate(row)}"
        if floor:
            extra += f"  floor {floor:6.2f} ({result['p95'] / floor:4.1f}x)"
        for target in row["targets"]:
            said = verdict(target, row)
            extra += f"  [{target.wording}: {said.upper() if said == 'missed' else said}]"
        print(
            f"{clients:2}c  {name:<40} p50 {result['p50']:7.2f}  p95 {result['p95']:7.2f}  p99 {result['p99']:7.2f} ms"
            f"  {result['rps']:7.0f} {unit}  n {result['n']:5}  errors {result['errors']}{extra}",
            flush=True,
        )
        return row


def warm(factory, times: int) -> None:
    call = factory(0)
    for _ in range(times):
        call()


def run_gets(run: Run, area: str, mixes: dict[str, list[str]], *, token: str | None = None) -> None:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    replay = {name: capture_sql(paths, headers) for name, paths in mixes.items()}
    for clients in CLIENTS:
        for name, paths in mixes.items():
            warm(http_calls(paths, token=token), min(len(paths) * 2, 60))
            result = drive(http_calls(paths, token=token), clients)
            sql = drive(sql_calls(replay[name]), clients, seconds=min(SECONDS, 2))
            run.add(area, name, clients, result, sql=sql)


def run_floor(run: Run) -> None:
    for clients in CLIENTS:
        warm(http_calls(["/bench/floor-db"]), 20)
        run.add("floor", "floor: minimal JSON view", clients, drive(http_calls(["/bench/floor"]), clients))
        result = drive(http_calls(["/bench/floor-db"]), clients)
        run.floor[clients] = result
        run.add("floor", "floor: JSON view + one SQL round trip", clients, result)


def run_bookings(run: Run) -> dict:
    from django.db.models import Count
    from django.utils import timezone

    from apps.bookings.models import Booking

    area = "bookings"
    info: dict = {}
    people = renters(RACERS + CREATE_CLIENTS + 1)
    if len(people) < RACERS + CREATE_CLIENTS + 1:
        print("Not enough scale renters for the booking scenarios; run seed_scale_bookings", flush=True)
        return info
    tokens = [token_for(person) for person in people]

    # Quote: the last step's price and availability for a few listings and days.
    quote_bodies = []
    for listing in bookable_event_spaces(8):
        quote_bodies += slots_for(listing, far_day(), 2)
    for clients in CLIENTS:
        for step in ("event-booking-details", "review-and-pay"):
            factory = post_calls(f"/api/booking/quote/{step}", quote_bodies)
            warm(factory, 10)
            run.add(area, f"booking quote ({step})", clients, drive(factory, clients))

    # Availability of a listing over a year: the busiest listing, over the year its bookings are in.
    busiest = Booking.objects.order_by().values("listing_id").annotate(n=Count("id")).order_by("-n").first()
    if busiest:
        newest = Booking.objects.filter(listing_id=busiest["listing_id"]).order_by("-check_in").first().check_in
        start = (newest - timedelta(days=300)).date()
        in_year = Booking.objects.filter(
            listing_id=busiest["listing_id"], check_in__date__gte=start, check_in__date__lt=start + timedelta(days=366)
        ).count()
        info["availability"] = {"bookings": busiest["n"], "in_year": in_year, "from": start.isoformat()}
        paths = [
            f"/api/listing/get-availability/{busiest['listing_id']}?from={start.isoformat()}&days=366",
            f"/api/listing/get-availability/{busiest['listing_id']}?days=366",
        ]
        run_gets(run, area, {"availability (366 days, busiest listing)": paths}, token=tokens[-1])

    # Creation throughput: 16 renters, each on a listing of its own, distinct days.
    creators = tokens[RACERS : RACERS + CREATE_CLIENTS]
    lists = [slots_for(listing, far_day(), CREATE_PER_CLIENT) for listing in bookable_event_spaces(CREATE_CLIENTS)]
    codes: dict[int, int] = {}
    lock = threading.Lock()

    def create_factory(index: int):
        connection = http.client.HTTPConnection("127.0.0.1", PORT, timeout=60)
        headers = {"Authorization": f"Bearer {creators[index]}"}
        mine = list(lists[index])

        def call():
            if not mine:
                return None
            status, _ = request(connection, "POST", "/api/booking/create", mine.pop(0), headers)
            with lock:
                codes[status] = codes.get(status, 0) + 1
            return status == 201

        return call

    result = drive(create_factory, CREATE_CLIENTS, seconds=max(SECONDS, 10))
    info["create_codes"] = codes
    run.add(area, "booking creation (distinct slots)", CREATE_CLIENTS, result, unit="bookings/s")

    # The race: 32 renters, one slot, all at once.
    listing = bookable_event_spaces(1)[0]
    body = slots_for(listing, far_day(), 1)[0]
    barrier = threading.Barrier(RACERS)
    outcomes: list[tuple[int, int, float, dict]] = []

    def racer(index: int) -> None:
        connection = http.client.HTTPConnection("127.0.0.1", PORT, timeout=60)
        connection.connect()
        barrier.wait(timeout=30)
        started = time.perf_counter()
        status, raw = request(
            connection, "POST", "/api/booking/create", body, {"Authorization": f"Bearer {tokens[index]}"}
        )
        elapsed = (time.perf_counter() - started) * 1000
        with lock:
            outcomes.append((index, status, elapsed, json.loads(raw or b"{}")))

    threads = [threading.Thread(target=racer, args=(n,)) for n in range(RACERS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    winners = [outcome for outcome in outcomes if outcome[1] == 201]
    statuses: dict[int, int] = {}
    for outcome in outcomes:
        statuses[outcome[1]] = statuses.get(outcome[1], 0) + 1
    stored = Booking.objects.filter(listing=listing, check_in_date=body["checkInDate"]).count()
    info["race"] = {
        "listing": listing.title,
        "slot": f"{body['checkInDate']} {body['startTime']}-{body['endTime']}",
        "statuses": statuses,
        "winner": (people[winners[0][0]].email, winners[0][3].get("data", {}).get("_id")) if winners else None,
        "stored": stored,
        "slowest_ms": max(outcome[2] for outcome in outcomes),
    }
    verdict = "exactly one winner" if len(winners) == 1 and stored == 1 else f"{len(winners)} winners: WRONG"
    print(
        f"race: {RACERS} renters for {listing.title} on {info['race']['slot']}: {verdict} "
        f"({info['race']['winner']}); answers {statuses}; bookings stored for the slot {stored}",
        flush=True,
    )
    info["now"] = timezone.now()
    return info


def run_notifications(run: Run) -> dict:
    from django.db.models import Count

    from apps.accounts.models import User
    from apps.notifications.models import Notification

    area = "notifications"
    heavy = (
        Notification.objects.filter(is_deleted=False)
        .order_by()
        .values("user_id")
        .annotate(n=Count("id"))
        .order_by("-n")
        .first()
    )
    user = User.objects.get(pk=heavy["user_id"])
    # The admin's counters cover the whole platform (scripts/bench_statistics.py signs in as the same one).
    admin, _ = User.objects.get_or_create(
        email="bench-admin@example.com", defaults={"role": "admin", "account_verified": True}
    )
    info = {
        "user_rows": heavy["n"],
        "user_unread": Notification.objects.filter(user=user, is_deleted=False, read=False).count(),
        "user_role": user.role,
    }
    token = token_for(user)
    run_gets(
        run,
        area,
        {
            "notification list (unread, page 1)": ["/api/notifications/get-all?page=1&limit=10"],
            "notification list (all, pages 1-5)": [
                f"/api/notifications/get-all?page={page}&limit=10&filters[all]=true" for page in range(1, 6)
            ],
            f"pending-counter ({user.role})": ["/api/dashboard/pending-counter"],
        },
        token=token,
    )
    run_gets(run, area, {"pending-counter (admin)": ["/api/dashboard/pending-counter"]}, token=token_for(admin))
    return info


async def fanout_rounds(pairs: list[tuple[str, str, str, str]]) -> list[dict]:
    """For each (host token, renter token, booking id, _): open both sockets, approve, time both events."""
    import aiohttp

    rounds = []
    async with aiohttp.ClientSession() as session:
        for host_token, renter_token, booking_id, _ in pairs:
            url = f"ws://127.0.0.1:{WS_PORT}/ws/notifications/?token="
            origin = {"Origin": "http://127.0.0.1"}
            async with (
                session.ws_connect(url + host_token, headers=origin) as host_ws,
                session.ws_connect(url + renter_token, headers=origin) as renter_ws,
            ):
                for ws in (host_ws, renter_ws):  # the socket is open: ping and wait for the pong
                    await ws.send_json({"event": "ping", "data": {}})
                    while (await ws.receive_json(timeout=10))["event"] != "pong":
                        pass
                loop = asyncio.get_running_loop()

                async def first(ws, event: str) -> float:
                    while True:
                        message = await ws.receive_json(timeout=10)
                        if message["event"] == event:
                            return time.perf_counter()

                host_wait = asyncio.ensure_future(first(host_ws, "pendingCounter"))
                renter_wait = asyncio.ensure_future(first(renter_ws, "notification"))
                started, started_at = time.perf_counter(), time.time()
                status, _ = await loop.run_in_executor(
                    None,
                    lambda booking_id=booking_id, host_token=host_token: request(
                        http.client.HTTPConnection("127.0.0.1", PORT, timeout=30),
                        "PATCH",
                        f"/api/booking/update-status/{booking_id}",
                        {"status": "approved"},
                        {"Authorization": f"Bearer {host_token}"},
                    ),
                )
                answered = time.perf_counter()
                try:
                    host_at, renter_at = await asyncio.gather(host_wait, renter_wait)
                except (TimeoutError, aiohttp.WSMessageTypeError) as error:
                    print(
                        f"fan-out round lost ({error!r}, approval answered {status}); daphne's log: {DAPHNE_LOG}",
                        flush=True,
                    )
                    rounds.append({"status": status, "lost": True})
                    continue
                # The next round starts once the worker has carried out this one's other effects
                # (the capture, e-mails, push): on these 2 cores they would otherwise run beside the
                # next approval, where production runs them on the worker's own machine.
                await loop.run_in_executor(None, wait_for_worker_idle, started_at)
                rounds.append(
                    {
                        "status": status,
                        "booking": booking_id,
                        "started_at": started_at,
                        "http": (answered - started) * 1000,
                        "host": (host_at - started) * 1000,
                        "renter": (renter_at - started) * 1000,
                        "both": (max(host_at, renter_at) - started) * 1000,
                    }
                )
    return rounds


def pay(renter, booking_id: str) -> None:
    """The renter pays for the request on the local gateway (held until the host answers)."""
    from django.db import transaction

    from apps.payments.gateway import get_gateway
    from apps.payments.models import Payment
    from apps.payments.services import payment_checkout_confirm, payment_checkout_start

    with transaction.atomic():
        payment_checkout_start(user=renter, booking_id=booking_id)
        session_id = Payment.objects.get(booking_id=booking_id).session_id
        get_gateway().pay(session_id)
        payment_checkout_confirm(session_id=session_id)


def run_fanout(run: Run) -> dict:
    """A booking approval reaching the host's and the renter's open sockets through daphne."""
    people = renters(RACERS + CREATE_CLIENTS + 2)[-1:]
    rounds_in_all = FANOUT_WARMUP + FANOUT_ROUNDS
    listings = bookable_event_spaces(rounds_in_all + 2)
    costs_on, listings = listings[rounds_in_all:], listings[:rounds_in_all]
    renter_token = token_for(people[0])
    pairs = []
    connection = http.client.HTTPConnection("127.0.0.1", PORT, timeout=60)
    costs = [approval_costs(connection, listing, people[0], renter_token) for listing in costs_on]
    costs = [cost for cost in costs if cost is not None]
    if costs:  # the first approval warms what a running server has warm; the last one counts
        print(f"approval in-process: {costs[-1]}", flush=True)
    for listing in listings:
        bodies = slots_for(listing, far_day(), 1)
        if not bodies:
            continue
        status, raw = request(
            connection, "POST", "/api/booking/create", bodies[0], {"Authorization": f"Bearer {renter_token}"}
        )
        if status == 201:
            booking_id = json.loads(raw)["data"]["_id"]
            pay(people[0], booking_id)
            pairs.append((token_for(listing.host), renter_token, booking_id, listing.title))
    rounds = asyncio.run(fanout_rounds(pairs))[FANOUT_WARMUP:]
    if os.environ.get("BENCH_VERBOSE"):
        for r in rounds:
            print(
                {k: round(v, 1) if isinstance(v, float) and k != "started_at" else v for k, v in r.items()}, flush=True
            )
    stages = worker_stages(rounds)
    hops = asyncio.run(layer_hops(listings[0].host, people[0], token_for(listings[0].host), renter_token))
    done = [r for r in rounds if not r.get("lost") and r["status"] == 200]
    lost = len(rounds) - len(done)
    for key, name in (
        ("http", "approval request alone (HTTP)"),
        ("host", "fan-out: approval to host's socket"),
        ("renter", "fan-out: approval to renter's socket"),
        ("both", "fan-out: approval to both sockets"),
    ):
        values = [r[key] for r in done]
        result = summary(values, sum(values) / 1000 if values else 0, lost)
        result["rps"] = 0.0
        run.add("websocket", name, 1, result, unit="")
    for name, values in stages.items():
        result = summary(values, sum(values) / 1000 if values else 0, 0)
        result["rps"] = 0.0
        run.add("websocket", name, 1, result, unit="")
    result = summary(hops, sum(hops) / 1000 if hops else 0, FANOUT_ROUNDS - len(hops))
    result["rps"] = 0.0
    run.add("websocket", "layer alone: group_send to both sockets", 1, result, unit="")
    return {"rounds": len(rounds), "lost": lost, "approval_costs": costs[-1] if costs else None}


def wait_for_worker_idle(since: float, limit: float = 5.0) -> None:
    """Until no effect queued since ``since`` (a wall-clock time) is still due now."""
    from django.db import close_old_connections

    from apps.core.models import Effect

    after = datetime.fromtimestamp(since - 1, tz=UTC)
    deadline = time.monotonic() + limit
    try:
        while time.monotonic() < deadline:
            if not Effect.objects.filter(
                status="pending", created_at__gte=after, next_attempt_at__lte=datetime.now(UTC)
            ).exists():
                return
            time.sleep(0.01)
    finally:
        close_old_connections()


def worker_stages(rounds: list[dict]) -> dict[str, list[float]]:
    """Where a round's time went, from the outbox rows of its approval: from sending the approval
    to the renter's live effect being queued (inside the approval's transaction, just before its
    commit), and from there to the worker marking the approval's page effects (the renter's event
    and the host's counters, sent in one transaction) done."""
    from apps.core.models import Effect

    queued, sent = [], []
    for r in rounds:
        if r.get("lost"):
            continue
        effect = (
            Effect.objects.filter(
                kind="notifications.live",
                payload__data__link=f"/booking-detail/{r['booking']}",
                payload__data__kind="bookingApproved",
                done_at__isnull=False,
            )
            .order_by("created_at")
            .first()
        )
        if effect is None:
            continue
        queued.append((effect.created_at.timestamp() - r["started_at"]) * 1000)
        sent.append((effect.done_at - effect.created_at).total_seconds() * 1000)
    return {
        "stage: approval sent → its effects queued (before commit)": queued,
        "stage: effects queued → page effects done by the worker": sent,
    }


def approval_costs(connection, listing, renter, renter_token: str) -> dict | None:
    """One approval of a paid request, in-process: its SQL queries and Redis round trips."""
    from django.db import connection as db
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from apps.core.testing import RedisRoundTrips

    bodies = slots_for(listing, far_day(), 1)
    if not bodies:
        return None
    auth = {"Authorization": f"Bearer {renter_token}"}
    status, raw = request(connection, "POST", "/api/booking/create", bodies[0], auth)
    if status != 201:
        return None
    booking_id = json.loads(raw)["data"]["_id"]
    pay(renter, booking_id)
    client = Client()
    headers = {"host": "127.0.0.1", "Authorization": f"Bearer {token_for(listing.host)}"}
    with CaptureQueriesContext(db) as queries, RedisRoundTrips() as redis:
        response = client.patch(
            f"/api/booking/update-status/{booking_id}",
            data=json.dumps({"status": "approved"}),
            content_type="application/json",
            headers=headers,
        )
    return {"status": response.status_code, "queries": len(queries), "redis": redis.count, "commands": redis.commands}


async def layer_hops(host, renter, host_token: str, renter_token: str) -> list[float]:
    """The Channels layer alone: one event sent to the host's and the renter's groups (as
    ``realtime.send_to_users`` does after a commit) until both open sockets have it; ms each."""
    import aiohttp
    from channels.layers import get_channel_layer

    from apps.notifications import realtime

    layer = get_channel_layer()
    url = f"ws://127.0.0.1:{WS_PORT}/ws/notifications/?token="
    origin = {"Origin": "http://127.0.0.1"}
    times = []
    async with (
        aiohttp.ClientSession() as session,
        session.ws_connect(url + host_token, headers=origin) as host_ws,
        session.ws_connect(url + renter_token, headers=origin) as renter_ws,
    ):
        for ws in (host_ws, renter_ws):
            await ws.send_json({"event": "ping", "data": {}})
            while (await ws.receive_json(timeout=10))["event"] != "pong":
                pass

        async def first(ws, marker: int) -> None:
            while True:
                message = await ws.receive_json(timeout=10)
                if message["event"] == "benchProbe" and message["data"].get("n") == marker:
                    return

        for n in range(FANOUT_ROUNDS):
            waits = [asyncio.ensure_future(first(ws, n)) for ws in (host_ws, renter_ws)]
            started = time.perf_counter()
            message = {"type": "push.event", "event": "benchProbe", "data": {"n": n}}
            for user in (host, renter):
                await layer.group_send(realtime.user_group(user.pk), message)
            try:
                await asyncio.gather(*waits)
            except TimeoutError:
                continue
            times.append((time.perf_counter() - started) * 1000)
    return times


# --- Search as users produce it (issue 25) -------------------------------------
#
# Every "search (new" row sends a query nobody asked before on each request (random cities, prices,
# words, map boxes and dates drawn from the data), so it measures the live search, not a stored
# answer; the "stored answer" rows repeat a few fixed addresses (what issue 18 measured).


class Draws:
    """What random searches are drawn from: the cities, title words, positions, catalogue names
    and slugs of the public listings (a sample of 3,000)."""

    def __init__(self) -> None:
        from apps.listings import search as discovery
        from apps.listings.models import Amenity, Facility

        public = discovery.searchable_listings()
        self.cities = sorted(set(public.order_by().values_list("city", flat=True).distinct()))
        sample = list(public.order_by("?").values_list("title", "latitude", "longitude", "slug")[:3000])
        self.titles = [row[0] for row in sample]
        self.words = sorted({word.lower() for title in self.titles for word in title.split() if len(word) >= 4})
        self.points = [(float(row[1]), float(row[2])) for row in sample if row[1] is not None]
        self.slugs = [row[3] for row in sample]
        self.amenities = list(Amenity.objects.values_list("name", flat=True))
        self.facilities = list(Facility.objects.values_list("name", flat=True))


def _api(query: str, page: int = 1) -> str:
    return f"/api/listing/property-listing?page={page}&limit=10&{SPEC}&{query}"


def _q(value: str) -> str:
    return quote(value, safe="")


def _day(rng: random.Random) -> date:
    return date.today() + timedelta(days=rng.randint(2, 300))


def search_kinds(draws: Draws) -> dict[str, object]:
    """Each kind of search: a function of a random generator giving a new address."""

    def city_min_price(rng):
        return _api(f"filters[city]={_q(rng.choice(draws.cities))}&filters[minPrice]={rng.randint(5, 400)}")

    def title_max_price(rng):
        return _api(f"filters[title]={_q(rng.choice(draws.words))}&filters[maxPrice]={rng.randint(20, 900)}")

    def box_date(rng):
        lat, lng = rng.choice(draws.points)
        half = rng.uniform(0.02, 0.25)
        box = f"[{lat - half:.4f},{lng - half:.4f},{lat + half:.4f},{lng + half:.4f}]"
        return _api(f"filters[bounds]={_q(box)}&filters[startDate]={_day(rng).isoformat()}")

    def type_guests_hourly(rng):
        kind = rng.choice(["eventSpace", "officeSpace"])
        return _api(
            f"filters[propertyType]={kind}&filters[guests]={rng.randint(1, 60)}"
            f"&filters[minPrice]={rng.randint(5, 80)}&filters[period]=hourly"
        )

    def amenities_facilities(rng):
        amenities = rng.sample(draws.amenities, rng.randint(1, 2))
        facilities = rng.sample(draws.facilities, 1)
        return _api(
            f"filters[amenities]={_q(json.dumps(amenities))}&filters[facilities]={_q(json.dumps(facilities))}"
            f"&filters[maxPrice]={rng.randint(30, 900)}"
        )

    def city_deep_page(rng):
        kind = rng.choice(["eventSpace", "officeSpace"])
        return _api(f"filters[city]={_q(rng.choice(draws.cities))}&filters[propertyType]={kind}", rng.randint(2, 30))

    def navbar_prefix(rng):
        title = rng.choice(draws.titles)
        return _api(f"filters[title]={_q(title[: rng.randint(3, min(len(title), 14))])}")

    return {
        "city + minimum price": city_min_price,
        "title word + maximum price": title_max_price,
        "map box + a date": box_date,
        "type + guests + hourly price": type_guests_hourly,
        "amenities + facility + maximum price": amenities_facilities,
        "a city and type, a deep page": city_deep_page,
        "navbar title search, a new prefix": navbar_prefix,
    }


def search_request(connection, path: str, headers: dict) -> tuple[int, str]:
    """(status, the stored-answer header: "hit", "miss" or "")."""
    try:
        connection.request("GET", path, headers={**HOST, **headers})
        response = connection.getresponse()
        response.read()
        return response.status, response.getheader("X-Search-Cache") or ""
    except (OSError, http.client.HTTPException):
        connection.close()
        return 0, ""


def new_query_calls(make_path, *, token: str | None = None, counts: dict | None = None, seed: int = 0):
    """Each client draws its own new addresses (its own generator); ``counts`` tallies hits."""
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    lock = threading.Lock()

    def factory(index: int):
        connection = http.client.HTTPConnection("127.0.0.1", PORT, timeout=60)
        rng = random.Random(f"{seed}-{index}-{time.time_ns()}")

        def call() -> bool:
            status, cached = search_request(connection, make_path(rng), headers)
            if counts is not None and cached:
                with lock:
                    counts[cached] = counts.get(cached, 0) + 1
            return status == 200

        return call

    return factory


def run_cold(run: Run, draws: Draws, token: str | None) -> None:
    """Every kind, a new query on each request, anonymous then signed in (1 and 4 clients)."""
    kinds = search_kinds(draws)
    for clients in CLIENTS:
        for who, as_token in (("anonymous", None), ("signed in", token)):
            if who == "signed in" and not token:
                continue
            for name, make_path in kinds.items():
                label = "title search (new prefix" if name.startswith("navbar") else "search (new"
                row = f"{label}, {who}): {name}"
                warm(new_query_calls(make_path, token=as_token), 5)
                counts: dict = {}
                result = drive(new_query_calls(make_path, token=as_token, counts=counts), clients)
                run.add("search", row, clients, result, floor_only=True, hits=counts)


def popular_addresses(draws: Draws) -> list[str]:
    """What many visitors ask alike: each city's category pages and a few dated city searches."""
    paths = []
    for city in draws.cities:
        for kind in ("eventSpace", "officeSpace"):
            paths.append(_api(f"filters[city]={_q(city)}&filters[propertyType]={kind}"))
        day = date.today() + timedelta(days=7)
        paths.append(_api(f"filters[city]={_q(city)}&filters[startDate]={day.isoformat()}"))
    return paths


def run_mixed(run: Run, draws: Draws) -> dict:
    """Searches while 16 renters create bookings: half the searches repeat popular addresses
    (city pages, dated city searches), half are new; the stored answers' hit rate beside it."""
    people = renters(CREATE_CLIENTS)
    if len(people) < CREATE_CLIENTS:
        return {}
    tokens = [token_for(person) for person in people]
    lists = [slots_for(listing, far_day(), CREATE_PER_CLIENT * 2) for listing in bookable_event_spaces(CREATE_CLIENTS)]
    kinds = list(search_kinds(draws).values())
    popular = popular_addresses(draws)
    warm(http_calls(popular), len(popular))
    stop = threading.Event()
    codes: dict[int, int] = {}
    lock = threading.Lock()

    def creator(index: int) -> None:
        connection = http.client.HTTPConnection("127.0.0.1", PORT, timeout=60)
        for body in lists[index]:
            if stop.is_set():
                return
            status, _ = request(
                connection, "POST", "/api/booking/create", body, {"Authorization": f"Bearer {tokens[index]}"}
            )
            with lock:
                codes[status] = codes.get(status, 0) + 1
            time.sleep(0.05)  # a renter's pace, not a flood: 16 of them

    def mixed(rng: random.Random) -> str:
        return rng.choice(popular) if rng.random() < 0.5 else rng.choice(kinds)(rng)

    creators = [threading.Thread(target=creator, args=(n,)) for n in range(CREATE_CLIENTS)]
    for thread in creators:
        thread.start()
    counts: dict = {}
    try:
        for clients in CLIENTS:
            counts_now: dict = {}
            result = drive(new_query_calls(mixed, counts=counts_now), clients, seconds=max(SECONDS, 10))
            name = "mixed: searches while 16 renters book"
            run.add("search", name, clients, result, floor_only=True, hits=counts_now)
            for key, value in counts_now.items():
                counts[key] = counts.get(key, 0) + value
    finally:
        stop.set()
        for thread in creators:
            thread.join()
    return {"codes": codes, "hits": counts}


def run_listing_pages(run: Run, draws: Draws) -> None:
    """The listing page: first visits of listings no one opened before, then repeats."""
    shares = {clients: draws.slugs[20:][n :: len(CLIENTS)] for n, clients in enumerate(CLIENTS)}
    for clients in CLIENTS:
        fresh = shares[clients]

        def factory(index: int, fresh=fresh, clients=clients):
            connection = http.client.HTTPConnection("127.0.0.1", PORT, timeout=60)
            mine = iter(fresh[index::clients])

            def call():
                slug = next(mine, None)
                if slug is None:
                    return None
                return request(connection, "GET", f"/listing-details/{slug}")[0] == 200

            return call

        run.add("search", "listing page: first visit", clients, drive(factory, clients), floor_only=True)
        repeats = [f"/listing-details/{slug}" for slug in draws.slugs[:20]]
        warm(http_calls(repeats), 40)
        run.add("search", "listing page: repeat visit (stored)", clients, drive(http_calls(repeats), clients))


# --- Main --------------------------------------------------------------------


def main() -> int:
    try:
        manage("migrate", "--noinput", "-v", "0")
    except subprocess.CalledProcessError:
        print("migrate failed; measuring the database as it is", flush=True)
    import django

    django.setup()
    from django.conf import settings

    from config import instance

    sizes = seed()
    load_before = os.getloadavg()
    run = Run()
    info: dict = {"sizes": sizes, "load_before": load_before, "started": datetime.now(UTC)}

    server = start_gunicorn()
    sockets = subprocess.Popen(
        [str(ROOT / ".venv/bin/daphne"), "-b", "127.0.0.1", "-p", str(WS_PORT), "config.asgi:application"],
        cwd=ROOT,
        env={**os.environ},
        stdout=DAPHNE_LOG.open("w"),
        stderr=subprocess.STDOUT,
    )
    # The worker carries out what the writes queue in the outbox (the approval's live events and
    # counters, e-mails, captures), as in production: prefork, 2 processes.
    worker = subprocess.Popen(
        [
            *(str(ROOT / ".venv/bin/celery"), "-A", "config", "worker", "-l", "warning", *WORKER.split()),
            *("--without-gossip", "--without-mingle", "--without-heartbeat"),
            # The instance's own queues: a `make run` beside it on the same Redis keeps its own work.
            *instance.worker_arguments(settings.INSTANCE_NAME, node=f"bench-{PORT}"),
        ],
        cwd=ROOT,
        env={**os.environ},
        stdout=WORKER_LOG.open("w"),
        stderr=subprocess.STDOUT,
    )
    try:
        wait_for_server(server)
        wait_for(WS_PORT, "/", sockets, "daphne")
        info["connections"] = check_persistent_connections()
        print(f"persistent connections: {info['connections']}", flush=True)
        run_floor(run)
        if "discovery" in AREAS_RUN or "cold" in AREAS_RUN:
            draws = Draws()
            people = renters(1)
            run_cold(run, draws, token_for(people[0]) if people else None)
        if "discovery" in AREAS_RUN:
            run_listing_pages(run, draws)
            run_gets(run, "discovery", discovery_mixes())
            info["mixed"] = run_mixed(run, draws)
        if "notifications" in AREAS_RUN:
            info["notifications"] = run_notifications(run)
        if "bookings" in AREAS_RUN:
            info["bookings"] = run_bookings(run)
        if "websocket" in AREAS_RUN:
            info["fanout"] = run_fanout(run)
            info["approval_costs"] = info["fanout"]["approval_costs"]
    finally:
        for process in (server, sockets, worker):
            process.terminate()
        for process in (server, sockets, worker):
            try:
                process.wait(20)
            except subprocess.TimeoutExpired:  # a request still held by a loaded machine: stop it
                process.kill()
                process.wait(20)
    info["load_after"] = os.getloadavg()
    if AREAS_RUN == ["cold"]:
        # The growth figures (docs/deployment.md): the cold rows alone at BENCH_LISTINGS listings.
        out = ROOT / "docs" / "bench" / f"search-cold-{sizes['listings']}.json"
        out.parent.mkdir(exist_ok=True)
        keep = ("name", "clients", "n", "p50", "p95", "p99", "rps", "errors", "floor", "hits")
        rows = [{key: row[key] for key in keep} for row in run.rows]
        load = {"before": info["load_before"], "after": info["load_after"]}
        out.write_text(json.dumps({"sizes": sizes, "load": load, "rows": rows}, indent=1, default=str) + "\n")
        print(f"Wrote {out}")
        return 0
    info["query_counts"] = query_counts() if "discovery" in AREAS_RUN else {}
    write_report(run, info)
    if os.environ.get("BENCH_STATISTICS", "1") == "1" and (ROOT / "scripts" / "bench_statistics.py").exists():
        print("Dashboard statistics (scripts/bench_statistics.py)…", flush=True)
        env = {**os.environ, "BENCH_STATS_PORT": str(PORT + 2), "BENCH_SECONDS": str(min(SECONDS, 3))}
        env["BENCH_CLIENTS"] = "1"
        subprocess.run([PY, "scripts/bench_statistics.py"], cwd=ROOT, env=env, check=False)
    return 0


def query_counts() -> dict[str, int]:
    """SQL queries per request, in-process, for a page of the search and the other GETs."""
    return {name: len(batches[0]) for name, batches in ((n, capture_sql(p[:1])) for n, p in discovery_mixes().items())}


# --- Report --------------------------------------------------------------------

AREAS = {
    "floor": "Floor",
    "search": "Search as users produce it (issue 25: a new query on each request; stored answers apart)",
    "discovery": "Stored answers: the same addresses repeated (issue 18)",
    "bookings": "Bookings",
    "notifications": "Notifications and pending counters",
    "websocket": "Websocket fan-out",
}
GENERATED_END = "<!-- end of the figures written by make bench -->"


def write_report(run: Run, info: dict) -> None:
    sizes = info["sizes"]
    lines = [
        "# Performance",
        "",
        f"Measured by `make bench` (scripts/bench.py) on {info['started']:%Y-%m-%d %H:%M} UTC on "
        f"{sizes['listings']:,} listings, {sizes['bookings']:,} bookings and {sizes['notifications']:,} "
        f"notifications: gunicorn as production runs it (`{GUNICORN}`) and daphne for the websockets, {os.cpu_count()} CPU cores, "
        f"Python {platform.python_version()}, PostgreSQL and Redis on the same machine, load from threads of one "
        f"process over 127.0.0.1, {SECONDS:g} s per scenario after a warm-up (at most {MAX_REQUESTS:,} requests). "
        f"Load average (1, 5, 15 min) {fmt_load(info['load_before'])} at the start, {fmt_load(info['load_after'])} "
        "at the end. Latencies in milliseconds.",
        "",
        f"Persistent database connections checked first: {info['connections']['workers']} workers, "
        f"{info['connections']['backends']} PostgreSQL connections over 20 requests (CONN_MAX_AGE "
        f"{info['connections']['conn_max_age']}).",
        "",
        "Columns: `floor` is what the same request would cost with no Django work: the p95 of "
        "`/bench/floor-db` (a JSON view with one database round trip) plus the p95 of the request's own "
        "SQL replayed straight on PostgreSQL (`SQL only`). `x floor` is p95 over that floor.",
        "",
    ]
    lines += targets_summary(run.rows, info.get("approval_costs"))
    path = ROOT / "docs" / "performance.md"
    old = path.read_text() if path.exists() else ""
    for area, title in AREAS.items():
        rows = [row for row in run.rows if row["area"] == area]
        if not rows:
            lines += earlier_section(old, title)
            continue
        lines += [f"## {title}", ""]
        lines += [
            "| scenario | clients | p50 | p95 | p99 | rate | errors | SQL only p95 | floor | x floor | target |",
            "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|",
        ]
        for row in rows:
            rate = f"{row['rps']:.0f} {row['unit']}" if row["unit"] else "-"
            target = "; ".join(f"{t.wording}: {bold_missed(verdict(t, row))}" for t in row["targets"])
            hits = f" ({hit_rate(row)})" if row.get("hits") else ""
            lines.append(
                f"| {row['name']}{hits} | {row['clients']} | {row['p50']:.2f} | {row['p95']:.2f} | {row['p99']:.2f} | "
                f"{rate} | {row['errors']} | {opt(row['sql_p95'])} | {opt(row['floor'])} | "
                f"{opt(row['p95'] / row['floor'] if row['floor'] else None, 1)} | {target} |"
            )
        lines.append("")
        lines += area_notes(area, info)
    if info["query_counts"]:
        lines += [
            "## SQL queries per request (public discovery)",
            "",
            "| scenario | queries |",
            "|---|---:|",
            *(f"| {name} | {count} |" for name, count in info["query_counts"].items()),
            "",
        ]
    lines += [GENERATED_END, ""]
    # The hand-written part (method, what was changed) lives in docs/performance-notes.md; the sections
    # from the front-end sizes on (and the dashboard statistics that scripts/bench_statistics.py
    # writes) are kept as they are.
    body = "\n".join(lines)
    notes = ROOT / "docs" / "performance-notes.md"
    if notes.exists():
        body += "\n" + notes.read_text().strip() + "\n"
    at = old.find("\n## Front end")
    if at >= 0:
        body += old[at:]
    path.write_text(body.rstrip() + "\n")
    print(f"Wrote {path}")


def earlier_section(old: str, title: str) -> list[str]:
    """An area this run did not measure (BENCH_AREAS): its section of the last run, said to be so."""
    start = old.find(f"\n## {title}\n")
    if start < 0:
        return []
    end = min(at for at in (old.find("\n## ", start + 1), old.find(GENERATED_END, start), len(old)) if at >= 0)
    body = old[start + 1 : end].strip().splitlines()
    note = "Not measured in this run (BENCH_AREAS); the figures of the run before, kept as they were:"
    return [body[0], "", note, *body[1:], ""]


def targets_summary(rows: list[dict], approval: dict | None) -> list[str]:
    """Issue 18's targets, each with its figure, the scenario's floor and met or missed."""
    lines = [
        "## Targets (issues 18 and 25)",
        "",
        "| measure | scenario | clients | target | figure | p95 | floor | result |",
        "|---|---|---:|---|---:|---:|---:|---|",
    ]
    for target in TARGETS:
        matching = [row for row in rows if target in row["targets"]]
        if not matching:
            lines.append(
                f"| {target.measure} | not run | {target.clients} | {target.wording} |  |  |  | not measured |"
            )
        for row in matching:
            value = target.figure(row)
            digits = 1 if target.stat in ("x floor", "rate") else 2
            figure = opt(value, digits) + ("/s" if target.stat == "rate" and value is not None else "")
            lines.append(
                f"| {target.measure} | {row['name']} | {row['clients']} | {target.wording} | {figure} | "
                f"{row['p95']:.2f} | {opt(row['floor'])} | {bold_missed(verdict(target, row))} |"
            )
    if approval and approval["status"] == 200:
        for key, limit, what in (
            ("queries", APPROVAL_MAX_QUERIES, "SQL queries"),
            ("redis", APPROVAL_MAX_REDIS, "Redis round trips"),
        ):
            result = "met" if approval[key] <= limit else "**missed**"
            lines.append(
                f"| approving a booking | {what} in the request (in-process) | 1 | ≤ {limit} | {approval[key]} |  |  | "
                f"{result} |"
            )
    return [*lines, ""]


def hit_rate(row: dict) -> str:
    hits = row.get("hits") or {}
    answered = hits.get("hit", 0) + hits.get("miss", 0)
    return f"stored answers {hits.get('hit', 0) / answered:.0%} of {answered}" if answered else "no stored answers"


def bold_missed(text: str) -> str:
    return "**missed**" if text == "missed" else text


def area_notes(area: str, info: dict) -> list[str]:
    if area == "bookings" and info.get("bookings"):
        bookings = info["bookings"]
        race = bookings.get("race", {})
        out = []
        if race:
            winner = race["winner"]
            out.append(
                f"The race: {RACERS} renters at once for one slot ({race['listing']}, {race['slot']}): answers "
                f"{', '.join(f'{count} x {status}' for status, count in sorted(race['statuses'].items()))}; "
                f"bookings stored for the slot: {race['stored']}; winner "
                f"{winner[0] + ' (booking ' + str(winner[1]) + ')' if winner else 'none'}; the slowest answer took "
                f"{race['slowest_ms']:.0f} ms."
            )
        if bookings.get("create_codes"):
            out.append(
                f"Booking creation: {CREATE_CLIENTS} renters, each on an event space of its own and distinct days, "
                f"at most {CREATE_PER_CLIENT} each; answers "
                f"{', '.join(f'{count} x {status}' for status, count in sorted(bookings['create_codes'].items()))}."
            )
        if bookings.get("availability"):
            a = bookings["availability"]
            out.append(
                f"Availability: the listing with the most bookings ({a['bookings']:,}), 366 days from {a['from']} "
                f"({a['in_year']:,} bookings in the window) and 366 days from today, as a signed-in renter."
            )
        return [*out, ""] if out else []
    if area == "search" and info.get("mixed"):
        mixed = info["mixed"]
        return [
            "The `search (new …)` rows draw a new query on every request (cities, words, prices, map boxes and "
            "dates drawn from the data); their floor is the JSON view with one database round trip. The mixed "
            f"row: half the searches repeat popular addresses (each city's category searches, a dated city "
            f"search), half are new, while {CREATE_CLIENTS} renters create bookings (answers "
            f"{', '.join(f'{count} x {status}' for status, count in sorted(mixed.get('codes', {}).items()))}); "
            f"over the whole row {hit_rate({'hits': mixed.get('hits')})} were answered from a stored answer.",
            "",
        ]
    if area == "notifications" and info.get("notifications"):
        n = info["notifications"]
        return [
            f"As the user with the most notifications ({n['user_rows']:,} live rows, {n['user_unread']:,} unread; "
            f"a {n['user_role']}); the admin's counters cover pending listings, disputes, payouts and "
            "verification requests across the platform.",
            "",
        ]
    if area == "websocket" and info.get("fanout"):
        f = info["fanout"]
        return [
            f"{f['rounds']} approvals, one at a time, each of a pending request made for the round: host and renter "
            "connected to daphne (`/ws/notifications/?token=`), the host approves over HTTP (gunicorn); timed "
            "from sending the approval to the renter's `notification` event and the host's `pendingCounter` "
            "event (both sent by the worker, prefork with 2 processes, from the one task the approval queues "
            f"when its transaction commits). Lost events: {f['lost']}.",
            "",
        ]
    return []


def opt(value: float | None, digits: int = 2) -> str:
    return "" if value is None else f"{value:.{digits}f}"


def fmt_load(load: tuple[float, float, float]) -> str:
    return ", ".join(f"{value:.2f}" for value in load)


if __name__ == "__main__":
    sys.exit(main())
