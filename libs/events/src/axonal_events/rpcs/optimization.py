"""The optimization service's RPCs: a sweep's study."""

from __future__ import annotations

from axonal_events.rpc import Rpc
from axonal_events.studies import GetStudy, StudyView

__all__ = ["Optimization"]


class Optimization:
    """Adaptive searches."""

    study = Rpc(
        "optimization", "study", GetStudy, StudyView, "A sweep's trials, best and importances."
    )
