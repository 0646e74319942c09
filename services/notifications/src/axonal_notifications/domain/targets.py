"""Which receivers a webhook may reach (a guard against server-side request forgery).

A target's host is resolved and every address it resolves to is classified. Link-local
addresses (which hold cloud metadata services), known metadata hosts and unspecified
addresses are always refused. Loopback, private and other non-public addresses are refused
unless an allow list names the host or a network containing the address. A deny list refuses
hosts and networks on top. The check runs when a subscription is created and again before
every attempt (DNS answers change): a :class:`TargetGuard` holds the resolver and the policy.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol
from urllib.parse import urlsplit

__all__ = [
    "IPAddress",
    "Resolver",
    "TargetGuard",
    "TargetPolicy",
    "TargetRefused",
    "check_host",
    "check_target",
    "classify",
]

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
IPNetwork = ipaddress.IPv4Network | ipaddress.IPv6Network

METADATA_HOSTS = frozenset({"metadata.google.internal", "metadata.goog", "metadata"})
METADATA_ADDRESSES = frozenset(
    ipaddress.ip_address(a) for a in ("169.254.169.254", "fd00:ec2::254", "100.100.100.200")
)


class TargetRefused(ValueError):
    """The URL points somewhere webhooks may not go; the message says why."""


class Resolver(Protocol):
    async def resolve(self, host: str) -> Sequence[IPAddress]:
        """Every address ``host`` resolves to; raises ``OSError`` when it does not resolve."""
        ...


@dataclass(frozen=True, slots=True)
class TargetPolicy:
    """Allow and deny lists on top of the defaults (hosts compared case-insensitively)."""

    allow_hosts: frozenset[str] = frozenset()
    allow_networks: tuple[IPNetwork, ...] = ()
    deny_hosts: frozenset[str] = frozenset()
    deny_networks: tuple[IPNetwork, ...] = ()

    @classmethod
    def parse(
        cls,
        *,
        allow_hosts: Iterable[str] = (),
        allow_networks: Iterable[str] = (),
        deny_hosts: Iterable[str] = (),
        deny_networks: Iterable[str] = (),
    ) -> TargetPolicy:
        """A policy from configuration strings; a malformed network raises ``ValueError``."""
        return cls(
            frozenset(h.lower().rstrip(".") for h in allow_hosts),
            tuple(ipaddress.ip_network(n, strict=False) for n in allow_networks),
            frozenset(h.lower().rstrip(".") for h in deny_hosts),
            tuple(ipaddress.ip_network(n, strict=False) for n in deny_networks),
        )


def classify(address: IPAddress) -> tuple[bool, str | None]:
    """``(always_refused, why)`` for an address; ``why`` is ``None`` for a public address."""
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    checks = (
        (address in METADATA_ADDRESSES, True, "a cloud metadata address"),
        (address.is_unspecified, True, "unspecified"),
        (address.is_link_local, True, "link-local"),
        (address.is_multicast, True, "multicast"),
        (address.is_loopback, False, "loopback"),
        (not address.is_global, False, "private or reserved"),
    )
    for hit, always, what in checks:
        if hit:
            return always, f"{address} is {what}"
    return False, None


def _refusal(host: str, address: IPAddress, policy: TargetPolicy) -> str | None:
    if any(address in net for net in policy.deny_networks if net.version == address.version):
        return f"{address} is in a denied network"
    always, why = classify(address)
    if why is None or always:
        return why
    allowed = host in policy.allow_hosts or any(
        address in net for net in policy.allow_networks if net.version == address.version
    )
    return None if allowed else why


async def check_target(url: str, resolver: Resolver, policy: TargetPolicy) -> None:
    """Raise :class:`TargetRefused` unless every address of ``url``'s host may be reached."""
    parts = urlsplit(url)
    host = (parts.hostname or "").lower().rstrip(".")
    if parts.scheme not in {"http", "https"} or not host:
        raise TargetRefused(f"{url!r} is not an http(s) URL")
    await check_host(host, resolver, policy, shown=url)


async def check_host(
    host: str, resolver: Resolver, policy: TargetPolicy, *, shown: str | None = None
) -> None:
    """Raise :class:`TargetRefused` unless every address of ``host`` may be reached
    (``shown`` names the target in the message, the host by default)."""
    host = host.lower().rstrip(".")
    shown = shown or host
    if host in policy.deny_hosts:
        raise TargetRefused(f"host {host} is denied by configuration")
    if host in METADATA_HOSTS:
        raise TargetRefused(f"host {host} is a cloud metadata service")
    try:
        addresses: Sequence[IPAddress] = [ipaddress.ip_address(host)]
    except ValueError:
        try:
            addresses = await resolver.resolve(host)
        except OSError as exc:
            raise TargetRefused(f"host {host} does not resolve: {exc}") from None
    if not addresses:
        raise TargetRefused(f"host {host} resolves to no address")
    for address in addresses:
        why = _refusal(host, address, policy)
        if why is not None:
            hint = "" if classify(address)[0] else " (allow it with AXONAL_NOTIFICATIONS_ALLOW_*)"
            raise TargetRefused(f"{shown} is refused: {why}{hint}")


@dataclass(frozen=True, slots=True)
class TargetGuard:
    """The resolver and the policy a target is checked with before it is stored."""

    resolver: Resolver
    policy: TargetPolicy

    async def check_url(self, url: str) -> None:
        """Raise :class:`TargetRefused` unless ``url`` may be reached."""
        await check_target(url, self.resolver, self.policy)

    async def check_host(self, host: str) -> None:
        """Raise :class:`TargetRefused` unless ``host`` may be reached."""
        await check_host(host, self.resolver, self.policy)
