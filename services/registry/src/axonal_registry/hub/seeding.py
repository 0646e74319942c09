"""At start-up: the built-in components become read-only hub versions (new or changed ones
only, so a newer platform updates them and a restart writes nothing)."""

from __future__ import annotations

from functools import partial

import structlog

from axonal_db import transaction
from axonal_registry.context import Context
from axonal_registry.hub import store
from axonal_registry.hub.builtins import builtin_versions

__all__ = ["register", "seed_builtins"]

log = structlog.get_logger(__name__)


async def seed_builtins(ctx: Context) -> None:
    versions = builtin_versions()
    async with transaction(ctx.pool) as conn:
        changed = await store.seed(conn, versions)
    log.info("hub.builtins_seeded", versions=len(versions), changed=changed)


def register(ctx: Context) -> None:
    ctx.on_startup(partial(seed_builtins, ctx))
