import os

from celery import Celery, bootsteps

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("spacemarket")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


class InstanceCheck(bootsteps.StartStopStep):
    """Before the worker takes a task: the database it serves is its instance's own, and no other
    database serves its instance on this Redis (apps/core/instances.py). A mismatch stops the worker
    with the reason (or, with INSTANCE_CHECK=warn, only logs it). While the worker runs, it keeps its
    instance's entry in the registry fresh."""

    requires = ("celery.worker.components:Timer",)
    # (The Consumer step, which takes tasks and says the worker is ready, always starts last.)

    def __init__(self, worker, **kwargs):
        super().__init__(worker, **kwargs)
        self.tref = None

    def start(self, worker):
        from apps.core import instances

        try:
            serving = instances.check_at_worker_start()
        except instances.InstanceMismatch as exc:
            import logging

            logging.getLogger("apps.core.instances").critical("The worker refuses to start: %s", exc)
            raise SystemExit(78) from exc  # EX_CONFIG
        if serving is not None:
            self.tref = worker.timer.call_repeatedly(instances.REGISTRY_REFRESH, instances.refresh, (serving,))

    def stop(self, worker):
        if self.tref is not None:
            self.tref.cancel()
            self.tref = None


app.steps["worker"].add(InstanceCheck)
