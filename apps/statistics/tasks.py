"""Celery beat keeps the platform statistics precomputed (see snapshots.py). Safe to run twice:
each run recomputes the same rows from the current data."""

from celery import shared_task

from . import snapshots


@shared_task(name="statistics.refresh_platform")
def refresh_platform_statistics() -> int:
    return snapshots.refresh_platform()
