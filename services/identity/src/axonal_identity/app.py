"""Wiring only: the identity service's application."""

from __future__ import annotations

from pathlib import Path

from faststream import FastStream

from axonal_bus.service import Service
from axonal_identity.api_keys import rpc as api_keys_rpc
from axonal_identity.audit import handlers as audit_handlers
from axonal_identity.audit import rpc as audit_rpc
from axonal_identity.context import Context
from axonal_identity.principals import bootstrap
from axonal_identity.principals import rpc as principals_rpc
from axonal_identity.projects import rpc as projects_rpc
from axonal_identity.quotas import rpc as quotas_rpc
from axonal_identity.settings import IdentitySettings
from axonal_identity.teams import rpc as teams_rpc

__all__ = ["SERVICE", "build_app"]

SERVICE = Service(
    name="identity",
    version="0.1.0",
    migrations=Path(__file__).resolve().parents[2] / "migrations",
)


def build_app(settings: IdentitySettings) -> FastStream:
    """The identity service on ``settings``: ``await build_app(settings).run()``."""
    ctx = Context(SERVICE, settings)
    projects_rpc.register(ctx)
    quotas_rpc.register(ctx)
    api_keys_rpc.register(ctx)
    principals_rpc.register(ctx)
    teams_rpc.register(ctx)
    bootstrap.register(ctx)
    audit_handlers.register(ctx)
    audit_rpc.register(ctx)
    return ctx.application()
