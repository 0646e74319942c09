"""The evaluation service's RPCs: datasets and experiments, score configs and annotation
queues, LLM connections, evaluators, their rules and jobs."""

from __future__ import annotations

from axonal_events.rpc import Rpc

__all__ = ["Evaluation"]


class Evaluation:
    """Datasets and experiments, score configs, annotation queues, evaluators and their jobs."""

    # Datasets, items, runs and experiments.

    # Score configs and annotation queues.

    # LLM connections, evaluators, rules and jobs.


_ = Rpc  # each section above declares Rpc("evaluation", ...) descriptors
