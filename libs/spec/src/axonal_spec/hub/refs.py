"""Component Hub references: ``[owner/]name[:version]``."""

from __future__ import annotations

import re
from dataclasses import dataclass

from axonal_spec.errors import SpecError

__all__ = ["HubRef", "parse_hub_ref"]

_PART = r"[A-Za-z0-9][-A-Za-z0-9_.]*"
_REF = re.compile(rf"^(?:(?P<owner>{_PART})/)?(?P<name>{_PART})(?::(?P<version>{_PART}))?$")


@dataclass(frozen=True, slots=True)
class HubRef:
    """A parsed ``hubRef``; ``version`` ``None`` means the default (``latest``) version."""

    name: str
    version: str | None = None
    owner: str | None = None

    def __str__(self) -> str:
        owner = f"{self.owner}/" if self.owner else ""
        version = f":{self.version}" if self.version else ""
        return f"{owner}{self.name}{version}"


def parse_hub_ref(ref: str) -> HubRef:
    """``"acme/tensorboard:multi-runs"`` -> ``HubRef("tensorboard", "multi-runs", "acme")``."""
    match = _REF.match(ref.strip()) if isinstance(ref, str) else None
    if match is None:
        raise SpecError.at(
            "hubRef",
            f"`{ref}` is not a hub reference",
            hint="write [owner/]name[:version], e.g. `tensorboard` or `acme/jupyterlab:scipy`",
        )
    return HubRef(name=match["name"], version=match["version"], owner=match["owner"])
