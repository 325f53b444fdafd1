from django.contrib.postgres.operations import BtreeGistExtension, TrigramExtension
from django.db import migrations


class Migration(migrations.Migration):
    """Availability uses btree_gist exclusion constraints; title search uses trigrams."""

    initial = True
    dependencies: list = []
    operations = [BtreeGistExtension(), TrigramExtension()]
