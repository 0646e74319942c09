"""The first administrator: made at start-up from the settings, kept in step with them.

``AXONAL_IDENTITY_ADMIN_PASSWORD`` (and ``AXONAL_IDENTITY_ADMIN_TOKEN``) make or update the
superuser ``AXONAL_IDENTITY_ADMIN_NAME``; ``axonal up`` generates both once per home.
"""

from __future__ import annotations

import asyncio
from functools import partial

import structlog

from axonal_db import transaction
from axonal_identity.context import Context
from axonal_identity.domain.credentials import hash_password, password_matches, token_from
from axonal_identity.principals import store

__all__ = ["ensure_admin", "register"]

log = structlog.get_logger(__name__)


async def ensure_admin(ctx: Context) -> None:
    """Create the configured superuser, or give it the configured password and token."""
    settings = ctx.settings
    if settings.admin_password is None and settings.admin_token is None:
        return
    name = settings.admin_name
    async with transaction(ctx.pool) as conn:
        await conn.execute("SELECT pg_advisory_xact_lock(hashtext('identity.bootstrap'))")
        admin = await store.by_name(conn, name) or await store.insert_principal(
            conn, name, "user", superuser=True
        )
        if admin is None:
            raise RuntimeError(f"the administrator {name} could not be created")
        if settings.admin_password is not None:
            password = settings.admin_password.get_secret_value()
            stored = await store.password_hash_of(conn, name)
            if stored is None or not password_matches(stored[1], password):
                hashed = await asyncio.to_thread(hash_password, password)
                await store.set_password(conn, admin.id, hashed)
        if settings.admin_token is not None:
            token = token_from(settings.admin_token.get_secret_value())
            await store.insert_token(conn, admin.id, "bootstrap", token, None)
    log.info("identity.admin_ready", name=name)


def register(ctx: Context) -> None:
    ctx.on_startup(partial(ensure_admin, ctx))
