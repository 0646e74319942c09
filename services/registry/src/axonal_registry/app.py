"""Wiring only: the registry service's application."""

from __future__ import annotations

from pathlib import Path

from faststream import FastStream

from axonal_bus.service import Service
from axonal_registry.context import Context
from axonal_registry.deletion import handlers as deletion_handlers
from axonal_registry.hub import rpc as hub_rpc
from axonal_registry.hub import seeding as hub_seeding
from axonal_registry.lineage import handlers as lineage_handlers
from axonal_registry.lineage import rpc as lineage_rpc
from axonal_registry.models import rpc as models_rpc
from axonal_registry.prompts import rpc as prompts_rpc
from axonal_registry.settings import RegistrySettings

__all__ = ["SERVICE", "build_app"]

SERVICE = Service(
    name="registry",
    version="0.1.0",
    migrations=Path(__file__).resolve().parents[2] / "migrations",
)


def build_app(settings: RegistrySettings) -> FastStream:
    """The registry service on ``settings``: ``await build_app(settings).run()``."""
    ctx = Context(SERVICE, settings)
    models_rpc.register(ctx)
    lineage_rpc.register(ctx)
    lineage_handlers.register(ctx)
    hub_rpc.register(ctx)
    hub_seeding.register(ctx)
    prompts_rpc.register(ctx)
    deletion_handlers.register(ctx)
    return ctx.application()
