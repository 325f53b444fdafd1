"""Search latency while large-canvas uploads run (docs/security.md, Round two).

Run against a server started as production runs it (gunicorn -w 4 --threads 4) on a database with
approved listings; ``TOKEN`` is a host's access token:

    BASE=http://127.0.0.1:8291 TOKEN=... REQUESTS=6 FILES=10 SIDE=5000 .venv/bin/python scripts/bench_uploads.py

Sends REQUESTS parallel ``POST /api/media/uploads`` of FILES PNGs of SIDE x SIDE pixels (one colour,
so each file is small) and meanwhile one public search (a new query each time) after another, for at
most LIMIT seconds; prints the upload answers and the search latencies.
"""

import io
import os
import statistics
import threading
import time
import uuid
from concurrent.futures import ThreadPoolExecutor

import requests
from PIL import Image

BASE = os.environ.get("BASE", "http://127.0.0.1:8291")
TOKEN = os.environ["TOKEN"]
REQUESTS = int(os.environ.get("REQUESTS", "6"))
FILES = int(os.environ.get("FILES", "10"))
SIDE = int(os.environ.get("SIDE", "5000"))
LIMIT = float(os.environ.get("LIMIT", "120"))


def png(n: int) -> bytes:
    Image.MAX_IMAGE_PIXELS = None
    out = io.BytesIO()
    Image.new("RGB", (SIDE, SIDE), (90, 120, n % 256)).save(out, format="PNG")
    return out.getvalue()


def main() -> None:
    files = [("files", (f"canvas{n}.png", png(n), "image/png")) for n in range(FILES)]
    print(f"{REQUESTS} requests of {FILES} PNGs of {SIDE} x {SIDE} ({len(files[0][1][1]) // 1024} KB each)")

    def search() -> float:
        started = time.perf_counter()
        response = requests.get(f"{BASE}/api/listing/property-listing", params={"city": uuid.uuid4().hex}, timeout=300)
        response.raise_for_status()
        return time.perf_counter() - started

    idle = [search() for _ in range(5)]
    done = threading.Event()
    answers: list[tuple[int, float, str]] = []

    def upload(_):
        started = time.perf_counter()
        try:
            response = requests.post(
                f"{BASE}/api/media/uploads", files=files, headers={"Authorization": f"Bearer {TOKEN}"}, timeout=LIMIT
            )
            answers.append((response.status_code, time.perf_counter() - started, response.headers.get("Retry-After")))
        except requests.RequestException as exc:
            answers.append((0, time.perf_counter() - started, type(exc).__name__))

    busy: list[float] = []
    started = time.perf_counter()
    with ThreadPoolExecutor(REQUESTS) as pool:
        futures = [pool.submit(upload, n) for n in range(REQUESTS)]
        time.sleep(0.3)
        while not all(f.done() for f in futures) and time.perf_counter() - started < LIMIT:
            try:
                busy.append(search())
            except requests.RequestException:
                busy.append(float("inf"))
        done.set()
    print(f"idle search: median {statistics.median(idle) * 1000:.0f} ms")
    print(f"uploads: {sorted(answers)}")
    if busy:
        print(
            f"search during uploads: {len(busy)} searches, median {statistics.median(busy) * 1000:.0f} ms, "
            f"max {max(busy) * 1000:.0f} ms"
        )


if __name__ == "__main__":
    main()
