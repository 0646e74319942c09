"""What every handler of the registry service receives first."""

from __future__ import annotations

from axonal_bus.service import ServiceContext
from axonal_registry.settings import RegistrySettings

__all__ = ["Context"]

Context = ServiceContext[RegistrySettings]
