"""What the executor holds of one attempt on the cluster (:class:`Handle`) and how it looks
at it (:class:`Timing`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from axonal_agent.domain.kube import Kind
from axonal_agent.domain.kube.status import STUCK_AFTER

__all__ = ["Handle", "Timing"]


@dataclass(frozen=True, slots=True)
class Handle:
    """An attempt's primary object (``kind``, ``name``), the label selectors of its pods,
    every object to delete at the end (primary first, its Secret last), a service's
    ``endpoints``, whether the cluster ends it at its timeout, and whether its pods are
    several (a distributed kind)."""

    kind: Kind
    name: str
    namespace: str
    pods: tuple[str, ...]
    objects: tuple[tuple[Kind, str], ...]
    endpoints: Mapping[str, str] = field(default_factory=dict)
    enforces_timeout: bool = False
    spread: bool = False


@dataclass(frozen=True, slots=True)
class Timing:
    """``stuck_after``: seconds a container may fail to start (a service crash-loop with
    no replica available) before the attempt fails;
    ``watch_seconds``: how long one watch lasts; ``settle``: how long a failure waits for
    the watch that says why (a pod's) to catch up with the one that says it failed (its
    controller's)."""

    stuck_after: float = STUCK_AFTER
    watch_seconds: int = 300
    settle: float = 0.5

    @property
    def tick(self) -> float:
        """How often the state is looked at again without a change (``stuck_after`` runs)."""
        return min(5.0, max(0.1, self.stuck_after / 4))
