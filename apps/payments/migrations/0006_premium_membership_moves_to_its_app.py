"""The plans and memberships now belong to the premium app (its 0001 takes over the same tables).

Only Django's picture moves: the payments app's foreign keys point at the premium app's models, and
the content types follow, so the memberships' status history and the permissions stay attached.
"""

import django.db.models.deletion
from django.db import migrations, models


def content_types_follow(apps, schema_editor):
    ContentType = apps.get_model("contenttypes", "ContentType")
    for model in ("plan", "subscription"):
        if not ContentType.objects.filter(app_label="premium", model=model).exists():
            ContentType.objects.filter(app_label="payments", model=model).update(app_label="premium")


def content_types_return(apps, schema_editor):
    ContentType = apps.get_model("contenttypes", "ContentType")
    for model in ("plan", "subscription"):
        if not ContentType.objects.filter(app_label="payments", model=model).exists():
            ContentType.objects.filter(app_label="premium", model=model).update(app_label="payments")


class Migration(migrations.Migration):
    dependencies = [
        ("contenttypes", "0002_remove_content_type_name"),
        ("payments", "0005_extension_one_open_charge"),
        ("premium", "0001_initial"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name="subscriptionpayment",
                    name="plan",
                    field=models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT, related_name="+", to="premium.plan"
                    ),
                ),
                migrations.AlterField(
                    model_name="subscriptionpayment",
                    name="subscription",
                    field=models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT, related_name="payments", to="premium.subscription"
                    ),
                ),
                migrations.DeleteModel(name="Subscription"),
                migrations.DeleteModel(name="Plan"),
            ],
            database_operations=[],
        ),
        migrations.RunPython(content_types_follow, content_types_return, elidable=False),
    ]
