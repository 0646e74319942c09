"""Labels of a prompt's versions: each label on at most one version, ``latest`` on the newest."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from axonal_events.prompts import LATEST, LabelMove

__all__ = ["after_delete", "moves_to"]


def moves_to(current: Mapping[str, int], version: int, labels: Iterable[str]) -> list[LabelMove]:
    """What putting ``labels`` on ``version`` changes, given where each label is now
    (``current``: label -> version): each label not already there moves from its version."""
    return [
        LabelMove(label=label, from_version=current.get(label), to_version=version)
        for label in dict.fromkeys(labels)
        if current.get(label) != version
    ]


def after_delete(
    current: Mapping[str, int], deleted: set[int], remaining: set[int]
) -> list[LabelMove]:
    """The labels a delete of ``deleted`` versions removes, and ``latest`` moved to the newest
    of the ``remaining`` versions when it was on a deleted one."""
    moves = [
        LabelMove(label=label, from_version=version, to_version=None)
        for label, version in current.items()
        if version in deleted and label != LATEST
    ]
    if current.get(LATEST) in deleted:
        newest = max(remaining, default=None)
        moves.append(LabelMove(label=LATEST, from_version=current[LATEST], to_version=newest))
    return moves
