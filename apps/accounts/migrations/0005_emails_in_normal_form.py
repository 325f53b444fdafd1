"""Stored e-mail addresses in their one normal form (NFKC, case-folded): lookups compare it exactly."""

from django.db import migrations


def normalise(apps, schema_editor):
    from apps.accounts.identifiers import normalize_email

    User = apps.get_model("accounts", "User")
    EmailAddress = apps.get_model("account", "EmailAddress")
    for pk, email in User.objects.values_list("pk", "email").iterator():
        normal = normalize_email(email)
        if normal != email and not User.objects.filter(email=normal).exists():
            User.objects.filter(pk=pk).update(email=normal)
            EmailAddress.objects.filter(user_id=pk, email=email).update(email=normal)


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0004_user_deleted_ids"),
        ("account", "0001_initial"),
    ]

    operations = [migrations.RunPython(normalise, migrations.RunPython.noop)]
