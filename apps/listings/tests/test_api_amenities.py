"""Amenities and facilities: admin and moderator manage the lists; everyone reads the active ones."""

import pytest

from apps.core.testing import check_role_matrix
from apps.listings.factories import AmenityFactory, FacilityFactory

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("catalogue", ["amenities", "facilities"])
def test_staff_add_rename_and_deactivate(clients, catalogue):
    base = f"/api/{catalogue}"
    response = clients["moderator"].post(f"{base}/add", {"name": "  Wi-Fi  ", "icon": "wifi"}, format="json")
    assert response.status_code == 201, response.content
    item = response.json()["data"]
    assert item["name"] == "Wi-Fi" and item["isActive"] is True and item["_id"]
    duplicate = clients["admin"].post(f"{base}/add", {"name": "wi-fi"}, format="json")
    assert duplicate.status_code == 409 and duplicate.json()["message"] == "wi-fi is already in the list."
    assert clients["admin"].post(f"{base}/add", {"name": ""}, format="json").json()["message"] == "Name is required"
    assert clients["admin"].post(f"{base}/add", {"name": "x" * 81}, format="json").status_code == 400

    renamed = clients["admin"].put(f"{base}/update/{item['_id']}", {"name": "Fast Wi-Fi"}, format="json")
    assert renamed.status_code == 200 and renamed.json()["data"]["name"] == "Fast Wi-Fi"
    off = clients["admin"].put(f"{base}/update/{item['_id']}", {"isActive": False}, format="json")
    assert off.json()["data"]["isActive"] is False
    assert clients["anonymous"].get(f"{base}/get-all").json()["data"] == []
    managed = clients["moderator"].get(f"{base}/manage?filters[status]=inactive").json()["data"]
    assert managed["totalCount"] == 1 and managed["items"][0]["name"] == "Fast Wi-Fi"
    assert clients["moderator"].get(f"{base}/manage?filters[status]=gone").status_code == 400
    assert (
        clients["admin"].put(f"{base}/update/{item['_id']}", {"isActive": "no way"}, format="json").status_code == 400
    )


def test_public_list_shows_active_items_without_sign_in(clients):
    AmenityFactory(name="Projector")
    AmenityFactory(name="Hidden", is_active=False)
    FacilityFactory(name="Kitchen")
    response = clients["anonymous"].get("/api/amenities/get-all")
    assert response.status_code == 200 and [a["name"] for a in response.json()["data"]] == ["Projector"]
    assert [f["name"] for f in clients["renter"].get("/api/facilities/get-all").json()["data"]] == ["Kitchen"]


def test_manage_role_matrix(clients):
    amenity = AmenityFactory(name="Parking")
    staff = {"moderator", "admin"}
    check_role_matrix(clients, "get", "/api/amenities/manage", allowed=staff)
    check_role_matrix(clients, "post", "/api/amenities/add", allowed=staff, data={"name": ""})
    check_role_matrix(clients, "put", f"/api/amenities/update/{amenity.pk}", allowed=staff, data={"icon": "car"})
    check_role_matrix(clients, "put", f"/api/facilities/update/{amenity.pk}", allowed=staff, data={"icon": "car"})
