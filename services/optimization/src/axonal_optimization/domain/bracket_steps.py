"""Which hyperband trials to start now, from the stored ones: the rung :class:`Hyperband`
says is next, as far as the sweep's concurrency allows."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from axonal_optimization.domain.hyperband import Finished, Hyperband

__all__ = ["BracketTrial", "Launch", "launches"]


@dataclass(frozen=True)
class BracketTrial:
    """A stored trial of a hyperband search."""

    number: int
    bracket: int
    rung: int
    config: int
    state: str
    value: float | None
    params: Mapping[str, Any]


@dataclass(frozen=True)
class Launch:
    """A trial to start: a new configuration (``config`` ``None``: its own number names it),
    or configuration ``config`` again (with ``params``) at a later rung's ``resource``."""

    bracket: int
    rung: int
    resource: int | float
    config: int | None = None
    params: Mapping[str, Any] | None = None


def launches(
    plan: Hyperband, trials: Sequence[BracketTrial], concurrency: int
) -> list[Launch] | None:
    """The trials to start now (none: wait for the running ones); ``None`` once the search is
    over."""
    finished = [
        Finished(t.bracket, t.rung, t.config, t.value if t.state == "complete" else None)
        for t in trials
        if t.state != "running"
    ]
    stage = plan.next_stage(finished)
    if stage is None:
        return None
    room = concurrency - sum(1 for t in trials if t.state == "running")
    here = [t for t in trials if (t.bracket, t.rung) == (stage.bracket, stage.rung)]
    if room <= 0:
        return []
    if stage.rung == 0:
        missing = max(0, stage.new_configs - len(here))
        return [Launch(stage.bracket, 0, stage.resource) for _ in range(min(room, missing))]
    started = {t.config for t in here}
    first = {t.config: t.params for t in trials if t.number == t.config}
    todo = [c for c in stage.promoted if c not in started and isinstance(c, int)][:room]
    return [Launch(stage.bracket, stage.rung, stage.resource, c, first[c]) for c in todo]
