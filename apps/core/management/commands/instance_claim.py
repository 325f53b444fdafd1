"""Say which instance this database belongs to, or give it to this one (INSTANCE_NAME).

A worker refuses to serve a database that belongs to another instance (apps/core/instances.py).
A database copied from another instance (a staging site restored from production's backup) still
names the instance it came from: once it really serves this instance, claim it here.
"""

from django.conf import settings
from django.core.management.base import BaseCommand

from apps.core.instances import database_claim_set, database_identity
from apps.core.models import InstanceClaim


class Command(BaseCommand):
    help = "Show which instance this database belongs to; --claim gives it to this one (INSTANCE_NAME)."

    def add_arguments(self, parser):
        parser.add_argument("--claim", action="store_true", help="Give this database to INSTANCE_NAME.")

    def handle(self, *args, claim: bool, **options):
        name = settings.INSTANCE_NAME
        database = database_identity()
        if claim:
            database_claim_set(name)
            self.stdout.write(f"Database {database!r} now belongs to instance {name!r}.")
            return
        owner = InstanceClaim.objects.filter(pk=1).values_list("name", flat=True).first()
        if owner is None:
            self.stdout.write(f"Database {database!r} belongs to no instance yet (its first worker claims it).")
        elif owner == name:
            self.stdout.write(f"Database {database!r} belongs to this instance, {name!r}.")
        else:
            self.stdout.write(
                f"Database {database!r} belongs to instance {owner!r}, not to this one ({name!r}): "
                "its workers refuse it. `manage.py instance_claim --claim` gives it to this one."
            )
