"""Whether an IP address the site is about to connect to is a public one (calendar feeds, push
services). IPv6 forms that carry an IPv4 address are judged by the IPv4 address they carry:
IPv4-mapped (``::ffff:a.b.c.d``), IPv4-compatible (``::a.b.c.d``), NAT64 (``64:ff9b::/96`` and
the local-use ``64:ff9b:1::/48``, where ``64:ff9b::a9fe:a9fe`` reaches 169.254.169.254, the cloud
metadata address), 6to4 (``2002::/16``) and Teredo (``2001::/32``). Python's ``is_global``
calls most of them global."""

import ipaddress

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address

NAT64 = (ipaddress.ip_network("64:ff9b::/96"), ipaddress.ip_network("64:ff9b:1::/48"))


def carried_ipv4(address: ipaddress.IPv6Address) -> list[ipaddress.IPv4Address]:
    """The IPv4 addresses an IPv6 address carries (none for a plain IPv6 address)."""
    if address.ipv4_mapped is not None:
        return [address.ipv4_mapped]
    if address.sixtofour is not None:
        return [address.sixtofour]
    if address.teredo is not None:
        return list(address.teredo)  # the relay server and the client behind it
    packed = address.packed
    if any(address in network for network in NAT64):
        return [ipaddress.IPv4Address(packed[-4:])]
    if packed[:12] == bytes(12) and int(address) > 1:  # IPv4-compatible, deprecated but routed by some stacks
        return [ipaddress.IPv4Address(packed[-4:])]
    return []


def is_public(address: IPAddress) -> bool:
    """A global unicast address, judged by the IPv4 address it carries when it carries one.
    ``is_global`` is false for private, loopback, link-local, shared (100.64/10), reserved,
    unspecified and documentation ranges."""
    if isinstance(address, ipaddress.IPv6Address):
        carried = carried_ipv4(address)
        if carried:
            return all(is_public(inner) for inner in carried)
    return address.is_global and not address.is_multicast


def is_loopback(address: IPAddress) -> bool:
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    return address.is_loopback
