"""A slow effect for `make scale-demo`: records which worker process holds it, waits, then records
that it finished (both in Redis), so the demo can kill that worker in the middle."""

import os
import time

from django.apps import AppConfig
from django.core.cache import cache

SLOW_SECONDS = 4


class ScaleDemoConfig(AppConfig):
    name = "scripts.scale_demo_app"
    label = "scale_demo"

    def ready(self) -> None:
        from apps.core.effects import effect_handler

        @effect_handler("scale_demo.slow")
        def slow(*, marker: str, key: str) -> None:
            cache.set(f"scale-demo:started:{marker}", f"{os.getpid()}:{os.getpgid(0)}", 300)
            time.sleep(SLOW_SECONDS)
            runs = cache.get(f"scale-demo:finished:{marker}") or 0
            cache.set(f"scale-demo:finished:{marker}", runs + 1, 300)
