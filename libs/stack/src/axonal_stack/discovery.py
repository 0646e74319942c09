"""Services are found through the ``axonal.services`` entry points, never imported here."""

from __future__ import annotations

import sys
from dataclasses import dataclass
from importlib.metadata import entry_points

__all__ = ["ENTRY_POINT_GROUP", "ServiceEntry", "discover_services"]

ENTRY_POINT_GROUP = "axonal.services"


@dataclass(frozen=True, slots=True)
class ServiceEntry:
    """A service name (``identity``) and the module that runs it (``axonal_identity``)."""

    name: str
    module: str

    def command(self) -> list[str]:
        """``python -m <module>`` with this interpreter."""
        return [sys.executable, "-m", self.module]


def discover_services() -> list[ServiceEntry]:
    """Every installed service, sorted by name (one entry per name)."""
    found = {
        ep.name: ServiceEntry(ep.name, ep.module) for ep in entry_points(group=ENTRY_POINT_GROUP)
    }
    return [found[name] for name in sorted(found)]
