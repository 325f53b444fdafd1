"""Booking and extension history moves to the one status history (core.StatusChange)."""

from django.db import migrations


def copy_events(apps, schema_editor):
    BookingEvent = apps.get_model("bookings", "BookingEvent")
    StatusChange = apps.get_model("core", "StatusChange")
    ContentType = apps.get_model("contenttypes", "ContentType")
    booking_type, _ = ContentType.objects.get_or_create(app_label="bookings", model="booking")
    extension_type, _ = ContentType.objects.get_or_create(app_label="bookings", model="extendbooking")
    batch = []
    for event in BookingEvent.objects.order_by("created_at", "id").iterator(chunk_size=2000):
        extension = event.extension_id is not None
        batch.append(
            StatusChange(
                machine="extension" if extension else "booking",
                content_type=extension_type if extension else booking_type,
                object_id=str(event.extension_id if extension else event.booking_id),
                from_status=event.from_status,
                to_status=event.to_status,
                actor_id=event.actor_id,
                reason=(event.reason or "")[:1000],
                created_at=event.created_at,
            )
        )
        if len(batch) >= 2000:
            StatusChange.objects.bulk_create(batch)
            batch = []
    StatusChange.objects.bulk_create(batch)


class Migration(migrations.Migration):
    dependencies = [
        ("bookings", "0001_initial"),
        ("core", "0002_outbox_and_status_history"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [
        migrations.RunPython(copy_events, migrations.RunPython.noop),
        migrations.RemoveIndex(model_name="bookingevent", name="bookings_bo_booking_d5ff0d_idx"),
        migrations.DeleteModel(name="BookingEvent"),
    ]
