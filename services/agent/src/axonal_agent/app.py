"""Wiring only: the agent service's application."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path

from faststream import FastStream

from axonal_agent.adapters.local import LocalExecutor
from axonal_agent.context import Context
from axonal_agent.ports import Executor
from axonal_agent.runs import handlers as runs_handlers
from axonal_agent.runs import lifecycle as runs_lifecycle
from axonal_agent.settings import AgentSettings
from axonal_bus.service import Service

__all__ = ["SERVICE", "build_app"]

SERVICE = Service(
    name="agent",
    version="0.1.0",
    migrations=Path(__file__).resolve().parents[2] / "migrations",
)


def _executor(settings: AgentSettings) -> tuple[Executor, Callable[[], Awaitable[None]] | None]:
    """The executor ``settings.executor`` names, and what closes it."""
    if settings.executor != "kubernetes":
        return LocalExecutor(), None
    # kubernetes_asyncio takes seconds to import: only an agent that uses it does.
    from axonal_agent.adapters.kubernetes import kubernetes_executor  # noqa: PLC0415

    kubernetes = kubernetes_executor(settings)
    return kubernetes, kubernetes.close


def build_app(settings: AgentSettings, executor: Executor | None = None) -> FastStream:
    """The agent on ``settings``: ``await build_app(settings).run()``. Its attempts run on
    ``executor``, else on the one ``settings.executor`` names (local processes, or
    workloads of a Kubernetes cluster)."""
    close = None
    if executor is None:
        executor, close = _executor(settings)
    ctx = Context(SERVICE, settings, executor)
    if close is not None:  # after the attempts stopped: shutdown hooks run in reverse
        ctx.on_shutdown(close)
    runs_handlers.register(ctx)
    runs_lifecycle.register(ctx)
    return ctx.application()
