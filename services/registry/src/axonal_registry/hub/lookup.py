"""What a ``hubRef`` resolves to: the owner's pushed version first, then a built-in one."""

from __future__ import annotations

from axonal_bus.errors import Invalid, NotFound
from axonal_db import Connection
from axonal_events.hub import HubComponent
from axonal_registry.domain.hub import BUILTIN_OWNER, HubRuleError, target_of, unknown_ref
from axonal_registry.hub import store
from axonal_registry.hub.builtins import aliases

__all__ = ["resolve"]


async def resolve(conn: Connection, ref: str) -> HubComponent:
    """The version ``ref`` names; :class:`Invalid` or :class:`NotFound` saying why not."""
    try:
        target = target_of(ref)
    except HubRuleError as exc:
        raise Invalid(str(exc)) from None
    if target.owner not in (None, BUILTIN_OWNER):
        found = await store.find(conn, target.owner, target.name, target.tag)
        if found is not None:
            return found
    name = aliases().get(target.name, target.name)
    found = await store.find(conn, BUILTIN_OWNER, name, target.tag)
    if found is not None:
        return found
    owned = await store.versions_of(conn, target.owner) if target.owner else {}
    builtins = await store.versions_of(conn, BUILTIN_OWNER)
    raise NotFound(unknown_ref(ref, target, owned, builtins))
