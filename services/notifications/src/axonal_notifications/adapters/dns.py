"""Host names resolved by the operating system's resolver (without blocking the loop)."""

from __future__ import annotations

import asyncio
import ipaddress
import socket
from collections.abc import Sequence

from axonal_notifications.domain.targets import IPAddress

__all__ = ["SystemResolver"]


class SystemResolver:
    """:class:`~axonal_notifications.domain.targets.Resolver` over ``getaddrinfo``."""

    async def resolve(self, host: str) -> Sequence[IPAddress]:
        infos = await asyncio.get_running_loop().getaddrinfo(host, None, proto=socket.IPPROTO_TCP)
        return list(dict.fromkeys(ipaddress.ip_address(info[4][0]) for info in infos))
