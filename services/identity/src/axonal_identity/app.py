"""Wiring only: the identity service's definition."""

from __future__ import annotations

from pathlib import Path

from axonal_bus.service import ServiceContext, ServiceDefinition
from axonal_identity import handlers, keys_rpc, rpc

__all__ = ["DEFINITION"]


def register(ctx: ServiceContext) -> None:
    handlers.register(ctx)
    rpc.register(ctx)
    keys_rpc.register(ctx)


DEFINITION = ServiceDefinition(
    name="identity",
    version="0.1.0",
    migrations=Path(__file__).resolve().parents[2] / "migrations",
    register=register,
)
