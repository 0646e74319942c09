"""What each process of the stack is told: where the stack's servers are, its secrets, and
what is the process's own (its NATS user, its replica's number and port)."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

from axonal_events.access import RUN_USER
from axonal_stack.admin import admin_env
from axonal_stack.replicas import Replica
from axonal_stack.settings import StackSettings
from axonal_stack.state import StackState
from axonal_stack.users import with_credentials

__all__ = ["NoNatsUserError", "service_env", "shared_env"]


class NoNatsUserError(LookupError):
    """A service has no NATS user on the stack's own NATS."""


def shared_env(settings: StackSettings, state: StackState) -> dict[str, str]:
    """This process's environment plus the stack's addresses and secrets (every service's)."""
    paths = settings.paths
    env = dict(os.environ)
    if not settings.nats_url:  # the stack's own NATS: a stream copy per node
        env["AXONAL_STREAM_REPLICAS"] = str(settings.stream_replicas)
    env.update(
        AXONAL_HOME=str(settings.home),
        AXONAL_NATS_URL=state.nats_url or "",
        AXONAL_DATABASE_URL=state.database_url or "",
        AXONAL_NAMESPACE=settings.namespace,
        AXONAL_ARTIFACTS_URL=str(paths.artifacts),
    )
    if state.api_port is not None:
        env.update(AXONAL_API_HOST=settings.host, AXONAL_API_PORT=str(state.api_port))
    if state.api_url:
        env["AXONAL_API_URL"] = state.api_url
    env.setdefault("AXONAL_RUN_TOKEN_SECRET", paths.read_run_token_secret())
    env.setdefault("AXONAL_EVALUATION_SECRET_KEY", paths.read_connection_key())
    # A laptop's webhook receivers listen on loopback: allowed here, by configuration.
    env.setdefault("AXONAL_NOTIFICATIONS_ALLOW_NETWORKS", "127.0.0.0/8,::1/128")
    return env


def service_env(
    replica: Replica,
    shared: Mapping[str, str],
    *,
    home: Path,
    passwords: Mapping[str, str],
    api_port: int | None = None,
) -> dict[str, str]:
    """``shared`` plus what is ``replica``'s own: its number, an api replica's port, the
    identity service's administrator, its NATS user (when the stack made the users: their
    ``passwords``; :class:`NoNatsUserError` when it has none)."""
    service = replica.service
    env = replica.env(shared)
    if api_port is not None:
        env["AXONAL_API_PORT"] = str(api_port)
    if service == "identity":  # it makes the home's administrator
        env = admin_env(home) | env
    if not passwords:
        return env
    if service not in passwords:
        raise NoNatsUserError(
            f"{service} has no NATS user: add its bus access to axonal_events.access.ACCESS"
        )
    env.update(AXONAL_NATS_USER=service, AXONAL_NATS_PASSWORD=passwords[service])
    if service == "agent":  # its runs publish their metrics as the run user
        run_url = with_credentials(env["AXONAL_NATS_URL"], RUN_USER, passwords[RUN_USER])
        env["AXONAL_AGENT_RUN_NATS_URL"] = run_url
    return env
