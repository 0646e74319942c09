"""What every handler of the identity service receives first."""

from __future__ import annotations

from axonal_bus.service import ServiceContext
from axonal_identity.settings import IdentitySettings

__all__ = ["Context"]

Context = ServiceContext[IdentitySettings]
