"""Discriminated unions on ``kind``, tagged the way :mod:`axonal_spec.parsing` expects.

Branches are tagged ``~<kind>`` (error locations drop tags starting with ``~``) and a missing or
unknown ``kind`` raises a ``spec_kind`` error ("``<label>.kind`` must be one of ..."), the
convention of ``axonal_spec.models.fields.kind_discriminator``. It is restated here because the
models import this package (importing them back would be circular).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pydantic import BaseModel, Discriminator

__all__ = ["TAG_PREFIX", "kind_discriminator"]

TAG_PREFIX = "~"


def kind_discriminator(
    label: str, kinds: Sequence[str], aliases: Mapping[str, str] | None = None
) -> Discriminator:
    """Pick the branch tagged ``~<kind>``; ``aliases`` map other spellings to a kind."""
    aliases = dict(aliases or {})
    fallback = f"{TAG_PREFIX}{kinds[0]}"  # a non-mapping: "expected a mapping" from a branch

    def pick(value: Any) -> str | None:
        if isinstance(value, BaseModel):
            return f"{TAG_PREFIX}{getattr(value, 'kind', kinds[0])}"
        if not isinstance(value, Mapping):
            return fallback
        kind = value.get("kind")
        kind = aliases.get(kind, kind) if isinstance(kind, str) else kind
        return f"{TAG_PREFIX}{kind}" if kind in kinds else None

    return Discriminator(
        pick,
        custom_error_type="spec_kind",
        custom_error_message=f"{label}.kind must be one of {', '.join([*kinds, *aliases])}",
    )
