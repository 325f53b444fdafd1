"""IPv6 forms that carry an IPv4 address are judged by that address."""

import ipaddress

import pytest

from apps.core.addresses import is_public


@pytest.mark.parametrize(
    "address",
    [
        "::a9fe:a9fe",  # IPv4-compatible 169.254.169.254
        "::ffff:a9fe:a9fe",  # IPv4-mapped
        "64:ff9b::a9fe:a9fe",  # NAT64, well-known prefix
        "64:ff9b::a00:1",
        "64:ff9b:1::a9fe:a9fe",  # NAT64, local-use prefix
        "2002:a9fe:a9fe::1",  # 6to4 of the metadata address
        "2002:c0a8:101::",  # 6to4 of 192.168.1.1
        "2001:0:4136:e378:8000:63bf:3fff:fdd2",  # Teredo
        "169.254.169.254",
        "::1",
        "::",
    ],
)
def test_private_addresses_in_any_dress_are_not_public(address):
    assert not is_public(ipaddress.ip_address(address))


@pytest.mark.parametrize(
    "address", ["93.184.215.14", "2606:2800:21f:cb07:6820:80da:af6b:8b2c", "64:ff9b::5db8:d70e", "2002:5db8:d70e::1"]
)
def test_public_addresses_stay_public(address):
    assert is_public(ipaddress.ip_address(address))
