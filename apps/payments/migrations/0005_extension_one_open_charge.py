from django.db import migrations, models


def cancel_duplicate_open_charges(apps, schema_editor):
    """Before the constraint: of several pending charges of one extension, the newest stays open."""
    ExtensionCharge = apps.get_model("payments", "ExtensionCharge")
    seen = set()
    for charge in ExtensionCharge.objects.filter(status="pending").order_by("extension_id", "-created_at"):
        if charge.extension_id in seen:
            ExtensionCharge.objects.filter(pk=charge.pk).update(status="cancelled")
        seen.add(charge.extension_id)


class Migration(migrations.Migration):
    dependencies = [
        ("bookings", "0004_booking_percentages_as_columns"),
        ("payments", "0004_cards_saved_for_later_charges"),
    ]

    operations = [
        migrations.RunPython(cancel_duplicate_open_charges, migrations.RunPython.noop),
        migrations.AddConstraint(
            model_name="extensioncharge",
            constraint=models.UniqueConstraint(
                condition=models.Q(("status", "pending")), fields=("extension",), name="extension_one_open_charge"
            ),
        ),
    ]
