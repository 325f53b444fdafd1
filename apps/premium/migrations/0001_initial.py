"""The premium membership's plans and memberships, moved here from the payments app.

Only Django's picture of the models moves: the tables keep their names (``payments_plan``,
``payments_subscription``), their rows, constraints and indexes.
"""

import uuid
from decimal import Decimal

import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        ("payments", "0005_extension_one_open_charge"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name='Plan',
                    fields=[
                        ('id', models.UUIDField(default=uuid.uuid4, editable=False, primary_key=True, serialize=False)),
                        ('plan_id', models.SlugField(help_text='Stable public identifier, e.g. premium-annual.', max_length=60, unique=True)),
                        ('plan_name', models.CharField(max_length=80)),
                        ('description', models.TextField(blank=True, max_length=2000)),
                        ('total_amount', models.DecimalField(decimal_places=2, default=Decimal('0.00'), max_digits=12)),
                        ('interval', models.CharField(choices=[('year', 'Year')], default='year', max_length=8)),
                        ('features', models.JSONField(blank=True, default=list)),
                        ('is_active', models.BooleanField(default=True)),
                        ('sort_order', models.PositiveSmallIntegerField(default=0)),
                        ('created_at', models.DateTimeField(default=django.utils.timezone.now)),
                    ],
                    options={
                        'db_table': 'payments_plan',
                        'ordering': ['sort_order', 'total_amount'],
                        'constraints': [models.CheckConstraint(condition=models.Q(('total_amount__gt', 0)), name='plan_amount_positive'), models.CheckConstraint(condition=models.Q(('interval__in', ['year'])), name='plan_interval_valid')],
                    },
                ),
                migrations.CreateModel(
                    name='Subscription',
                    fields=[
                        ('id', models.UUIDField(default=uuid.uuid4, editable=False, primary_key=True, serialize=False)),
                        ('type', models.CharField(choices=[('free', 'Free'), ('premium', 'Premium')], default='free', max_length=8)),
                        ('status', models.CharField(choices=[('active', 'Active'), ('cancelled', 'Cancelled'), ('expired', 'Expired')], default='active', max_length=10)),
                        ('subscription_source', models.CharField(choices=[('none', 'None'), ('stripe', 'Stripe'), ('local', 'Local checkout'), ('admin', 'Given by an admin')], default='none', max_length=8)),
                        ('start_date', models.DateTimeField(blank=True, null=True)),
                        ('next_billing_date', models.DateTimeField(blank=True, null=True)),
                        ('cancelled_at', models.DateTimeField(blank=True, null=True)),
                        ('expired_at', models.DateTimeField(blank=True, null=True)),
                        ('gateway_subscription_id', models.CharField(blank=True, db_index=True, max_length=120)),
                        ('gateway_customer_id', models.CharField(blank=True, max_length=120)),
                        ('gateway_synced_at', models.DateTimeField(blank=True, help_text='Time of the newest gateway event applied (older ones are ignored).', null=True)),
                        ('deletion_warning_sent_at', models.DateTimeField(blank=True, null=True)),
                        ('premium_listings_deleted_at', models.DateTimeField(blank=True, null=True)),
                        ('created_at', models.DateTimeField(default=django.utils.timezone.now)),
                        ('updated_at', models.DateTimeField(auto_now=True)),
                        ('host', models.OneToOneField(on_delete=django.db.models.deletion.PROTECT, related_name='subscription', to=settings.AUTH_USER_MODEL)),
                        ('plan', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to='premium.plan')),
                    ],
                    options={
                        'db_table': 'payments_subscription',
                        'constraints': [
                            models.CheckConstraint(condition=models.Q(('type__in', ['free', 'premium'])), name='subscription_type_valid'),
                            models.CheckConstraint(condition=models.Q(('status__in', ['active', 'cancelled', 'expired'])), name='subscription_status_valid'),
                            models.CheckConstraint(condition=models.Q(('subscription_source__in', ['none', 'stripe', 'local', 'admin'])), name='subscription_source_valid'),
                            models.CheckConstraint(condition=models.Q(('type', 'free'), models.Q(('next_billing_date__isnull', False), ('start_date__isnull', False)), _connector='OR'), name='subscription_premium_has_dates'),
                        ],
                        'indexes': [models.Index(fields=['type', 'status', 'next_billing_date'], name='payments_su_type_d8ce01_idx')],
                    },
                ),
            ],
            database_operations=[],
        ),
    ]
