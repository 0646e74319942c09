"""How a principal's own grants and its teams' make its roles: the strongest at each level."""

from __future__ import annotations

from collections.abc import Iterable

from axonal_events.principals import Role, RoleName

__all__ = ["strongest"]


def strongest(grants: Iterable[tuple[str, RoleName]]) -> dict[str, RoleName]:
    """``(where, role)`` pairs to the strongest role at each place."""
    found: dict[str, Role] = {}
    for where, role in grants:
        given = Role.named(role)
        if where not in found or given > found[where]:
            found[where] = given
    return {where: role.label for where, role in found.items()}
