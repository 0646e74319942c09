"""The faults the chaos suite injects into a running cluster stack, each returning once it is
done (the supervisor restarts what was killed on its own; a fault does not wait for that)."""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from axonal_stack.discovery import discover_services
from axonal_testing.receiver import Receiver
from axonal_testing.stack import RunningStack
from axonal_testing.waiting import wait_for_sync

__all__ = ["RECEIVER_PAUSE", "SERVICES", "Fault", "catalog"]

SERVICES = sorted(entry.name for entry in discover_services())
NATS_NODES = ("nats-1", "nats-2", "nats-3")
RECEIVER_PAUSE = 10.0  # seconds the webhook receiver answers 503


@dataclass(frozen=True)
class Fault:
    """``name`` as the report shows it; ``inject`` does it (to the stack, or the receiver) and
    returns once it is over, after ``held`` seconds of it (recovery counts from its end)."""

    name: str
    inject: Callable[[RunningStack, Receiver], None]
    held: float = 0.0


def _signal_all(stack: RunningStack, roles: list[str], signum: int) -> None:
    """Send ``signum`` to each of ``roles`` (service replicas, NATS nodes, ``postgres``) and
    wait until the supervisor has restarted every one of them."""
    state = stack.state()
    before = {role: _restarts(state, role) for role in roles}
    for role in roles:
        os.kill(_pid(state, role), signum)
    wait_for_sync(
        lambda: all(_restarts(stack.state(), role) > before[role] for role in roles),
        timeout=90,
        interval=0.1,
        message=f"{', '.join(roles)} restarted",
    )


def _pid(state: dict[str, Any], role: str) -> int:
    if role in state["services"]:
        return int(state["services"][role]["process"]["pid"])
    if role in state["nats_nodes"]:
        return int(state["nats_nodes"][role]["process"]["pid"])
    return int(state[role]["pid"])


def _restarts(state: dict[str, Any], role: str) -> int:
    found = state["services"].get(role) or state["servers"][role]
    up = found.get("up", found.get("process") is not None)
    return int(found["restarts"]) if up else -1


def kill(*roles: str) -> Fault:
    """SIGKILL ``roles`` at once: ``tracking`` is the first replica, ``tracking-2`` the second."""
    return Fault(
        f"SIGKILL {' + '.join(roles)}",
        lambda stack, _: _signal_all(stack, list(roles), signal.SIGKILL),
    )


def restart_nats(*nodes: str) -> Fault:
    """Stop NATS nodes the way an operator restarting them would (SIGTERM); the supervisor
    starts them again on the same ports and store."""
    name = "restart all NATS nodes" if len(nodes) == len(NATS_NODES) else f"restart {nodes[0]}"
    return Fault(name, lambda stack, _: _signal_all(stack, list(nodes), signal.SIGTERM))


def restart_postgres() -> Fault:
    """PostgreSQL's fast shutdown (SIGINT: sessions are ended, nothing committed is lost)."""
    return Fault(
        "restart PostgreSQL", lambda stack, _: _signal_all(stack, ["postgres"], signal.SIGINT)
    )


def _pause(_: RunningStack, receiver: Receiver) -> None:
    receiver.status = 503
    time.sleep(RECEIVER_PAUSE)
    receiver.status = 200


def pause_receiver() -> Fault:
    return Fault(f"webhook receiver answers 503 for {RECEIVER_PAUSE:.0f}s", _pause, RECEIVER_PAUSE)


def catalog() -> list[Fault]:
    """Every fault, in the order the suite injects them."""
    return [
        *(kill(service) for service in SERVICES),
        *(kill(f"{service}-2") for service in SERVICES),
        *(kill(service, f"{service}-2") for service in SERVICES),
        restart_nats(NATS_NODES[0]),
        restart_nats(*NATS_NODES),
        restart_postgres(),
        pause_receiver(),
    ]
