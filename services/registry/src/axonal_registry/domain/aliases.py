"""Aliases of a registered model: one holder each, protected ones move only on approval.

``staging`` and ``production`` are the usual aliases, any other lowercase name is a custom
one; ``archived`` is not an alias but the state of an archived version (archive it instead).
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping
from dataclasses import dataclass

__all__ = [
    "ARCHIVED",
    "STAGES",
    "AliasError",
    "Move",
    "NeedsApproval",
    "check_alias",
    "check_aliases",
    "plan_move",
    "plan_promotion",
]

ARCHIVED = "archived"
#: The aliases every model knows by name; others are custom.
STAGES = ("staging", "production")
_ALIAS = re.compile(r"[a-z][a-z0-9_-]{0,49}")


class AliasError(ValueError):
    """An alias that cannot be used, or a move that is not allowed."""


@dataclass(frozen=True, slots=True)
class Move:
    """Move the alias now; ``previous`` is the version that held it (if another did)."""

    alias: str
    version: int
    previous: int | None


@dataclass(frozen=True, slots=True)
class NeedsApproval:
    """The alias is protected: record a pending request that an approval completes."""

    alias: str
    version: int


def check_alias(alias: str) -> str:
    """``alias`` when usable; :class:`AliasError` naming the problem otherwise."""
    if alias == ARCHIVED:
        raise AliasError("alias: 'archived' is a state, not an alias: archive the version")
    if not _ALIAS.fullmatch(alias):
        raise AliasError(
            f"alias: {alias!r} must be 1 to 50 lowercase letters, digits, _ or -, "
            "starting with a letter"
        )
    return alias


def check_aliases(aliases: Collection[str]) -> list[str]:
    """The aliases, checked, sorted and without repeats."""
    return sorted({check_alias(alias) for alias in aliases})


def plan_move(holders: Mapping[str, int], *, alias: str, version: int, archived: bool) -> Move:
    """Moving ``alias`` to ``version`` now; an archived version takes no alias."""
    check_alias(alias)
    if archived:
        raise AliasError(f"version: {version} is archived and cannot take alias {alias!r}")
    return Move(alias, version, holders.get(alias))


def plan_promotion(
    holders: Mapping[str, int],
    protected: Collection[str],
    *,
    alias: str,
    version: int,
    archived: bool,
) -> Move | NeedsApproval:
    """What asking to move ``alias`` to ``version`` does, given who holds each alias now.

    A protected alias waits for approval, unless the version holds it already (a
    :class:`Move` from itself, which changes nothing).
    """
    move = plan_move(holders, alias=alias, version=version, archived=archived)
    if alias in protected and move.previous != version:
        return NeedsApproval(alias, version)
    return move
