"""Rules of runs tracked from the SDK: tag merging and who may end a run."""

from __future__ import annotations

from collections.abc import Iterable

__all__ = ["ManagedRunError", "check_can_end", "merged_tags"]


class ManagedRunError(ValueError):
    """A run executed by an agent: its status is the agent's to report."""


def merged_tags(current: Iterable[str], added: Iterable[str]) -> list[str]:
    """``current`` then the new ones of ``added``, in order, each once."""
    return list(dict.fromkeys([*current, *added]))


def check_can_end(run_uuid: str, *, managed: bool) -> None:
    """Raise :class:`ManagedRunError` unless the run is tracked from the SDK."""
    if managed:
        raise ManagedRunError(
            f"run {run_uuid} is executed by an agent, which reports its status; "
            "stop it with `axonal ops stop` instead"
        )
