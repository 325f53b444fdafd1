"""Descriptions stored before the model sanitised every save (the Django admin wrote raw HTML)."""

from django.db import migrations


def sanitise(apps, schema_editor):
    from apps.cms.sanitize import sanitize_rich_text

    Listing = apps.get_model("listings", "Listing")
    for pk, description in Listing.objects.filter(description__contains="<").values_list("pk", "description"):
        clean = sanitize_rich_text(description)
        if clean != description:
            Listing.objects.filter(pk=pk).update(description=clean)


class Migration(migrations.Migration):
    dependencies = [("listings", "0008_listing_notice_window_drafts")]

    operations = [migrations.RunPython(sanitise, migrations.RunPython.noop)]
