"""The amenities and facilities hosts choose from, kept by staff."""

from django.db import transaction
from django.db.models import Q

from apps.core.exceptions import Conflict, InvalidInput

from ..models import Amenity, Facility


@transaction.atomic
def catalogue_item_create(*, model: type[Amenity] | type[Facility], name: str, icon: str = "") -> Amenity | Facility:
    name = (name or "").strip()
    if not name:
        raise InvalidInput("Name is required", errors={"name": ["Name is required"]})
    if model.objects.filter(name__iexact=name).exists():
        raise Conflict(f"{name} is already in the list.", errors={"name": [f"{name} is already in the list."]})
    return model.objects.create(name=name, icon=(icon or "").strip())


@transaction.atomic
def catalogue_item_update(
    *, item: Amenity | Facility, name: str | None = None, icon: str | None = None, is_active: bool | None = None
) -> Amenity | Facility:
    """Rename, change the icon, or (de)activate. A deactivated item stays on the listings that have it
    but can no longer be chosen."""
    model = type(item)
    if name is not None:
        name = name.strip()
        if not name:
            raise InvalidInput("Name is required", errors={"name": ["Name is required"]})
        if model.objects.filter(~Q(pk=item.pk), name__iexact=name).exists():
            raise Conflict(f"{name} is already in the list.", errors={"name": [f"{name} is already in the list."]})
        item.name = name
    if icon is not None:
        item.icon = icon.strip()
    if is_active is not None:
        item.is_active = is_active
    item.save()
    return item
