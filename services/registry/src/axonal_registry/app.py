"""Wiring only: the registry service's application."""

from __future__ import annotations

from pathlib import Path

from faststream import FastStream

from axonal_bus.service import Service
from axonal_registry.context import Context
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
    prompts_rpc.register(ctx)
    return ctx.application()
