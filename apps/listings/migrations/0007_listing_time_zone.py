"""Each listing gets the IANA time zone of the space; existing rows get theirs from their city.

The tables below are frozen copies of ``apps.listings.zones`` as of this migration: the demo's 11
cities in 6 countries (and a few more), then one zone per country for other cities, then the map
pin for countries in neither table, else America/New_York (the zone every time was in before).
"""

from django.conf import settings
from django.db import migrations, models

from apps.listings.zones import default_zone, zone_at

CITY_ZONES = {
    ("toronto", "canada"): "America/Toronto",
    ("vancouver", "canada"): "America/Vancouver",
    ("montreal", "canada"): "America/Toronto",
    ("calgary", "canada"): "America/Edmonton",
    ("new york", "united states"): "America/New_York",
    ("san francisco", "united states"): "America/Los_Angeles",
    ("los angeles", "united states"): "America/Los_Angeles",
    ("seattle", "united states"): "America/Los_Angeles",
    ("chicago", "united states"): "America/Chicago",
    ("austin", "united states"): "America/Chicago",
    ("denver", "united states"): "America/Denver",
    ("bengaluru", "india"): "Asia/Kolkata",
    ("bangalore", "india"): "Asia/Kolkata",
    ("mumbai", "india"): "Asia/Kolkata",
    ("sydney", "australia"): "Australia/Sydney",
    ("melbourne", "australia"): "Australia/Melbourne",
    ("brisbane", "australia"): "Australia/Brisbane",
    ("perth", "australia"): "Australia/Perth",
    ("auckland", "new zealand"): "Pacific/Auckland",
    ("wellington", "new zealand"): "Pacific/Auckland",
    ("london", "united kingdom"): "Europe/London",
    ("manchester", "united kingdom"): "Europe/London",
}
COUNTRY_ZONES = {
    "canada": "America/Toronto",
    "united states": "America/New_York",
    "usa": "America/New_York",
    "india": "Asia/Kolkata",
    "australia": "Australia/Sydney",
    "new zealand": "Pacific/Auckland",
    "united kingdom": "Europe/London",
    "uk": "Europe/London",
}


def zones_from_cities(apps, schema_editor):
    Listing = apps.get_model("listings", "Listing")
    # Broad to narrow: country first, then the cities the table knows (set-based: fast on big tables).
    for country, zone in COUNTRY_ZONES.items():
        Listing.objects.filter(country__iexact=country).update(time_zone=zone)
    for (city, country), zone in CITY_ZONES.items():
        Listing.objects.filter(city__iexact=city, country__iexact=country).update(time_zone=zone)
    known = models.Q()
    for country in COUNTRY_ZONES:
        known |= models.Q(country__iexact=country)
    others = Listing.objects.exclude(known).filter(latitude__isnull=False, longitude__isnull=False)
    for listing in others.only("pk", "latitude", "longitude").iterator():
        zone = zone_at(listing.latitude, listing.longitude)
        if zone:
            Listing.objects.filter(pk=listing.pk).update(time_zone=zone)


class Migration(migrations.Migration):
    dependencies = [
        ("listings", "0006_search_public_city_newest"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name="listing",
            name="time_zone",
            field=models.CharField(
                default=default_zone,
                help_text="IANA zone of the space (Asia/Kolkata): its opening hours, slots and booked times are "
                "wall-clock times there. Found from the map pin or the city when the listing is created; the host "
                "can change it.",
                max_length=64,
            ),
        ),
        migrations.RunPython(zones_from_cities, migrations.RunPython.noop, elidable=True),
        migrations.AddConstraint(
            model_name="listing",
            constraint=models.CheckConstraint(
                condition=models.Q(("time_zone", ""), _negated=True), name="listing_time_zone_set"
            ),
        ),
    ]
