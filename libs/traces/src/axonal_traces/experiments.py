"""Experiment (dataset run) ids, derived exactly as the Langfuse SDK derives them."""

from __future__ import annotations

import hashlib
import json

__all__ = ["experiment_id"]


def experiment_id(project_id: str, dataset_id: str, run_name: str) -> str:
    """``sha256(JSON(["langfuse-experiment-v1", project, dataset, run], compact))[:16]``."""
    key = ["langfuse-experiment-v1", project_id, dataset_id, run_name]
    text = json.dumps(key, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()[:16]
