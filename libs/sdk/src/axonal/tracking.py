"""Track a run from inside its process (standard library only: it loads in every user job).

The agent that runs a job tells it where to write through ``AXONAL_RUN_OUTPUTS_FILE``; it
reads the file when the process exits and reports the values as the run's outputs.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

__all__ = ["NotInRunError", "log_outputs", "outputs_file"]

OUTPUTS_FILE_ENV = "AXONAL_RUN_OUTPUTS_FILE"


class NotInRunError(RuntimeError):
    """Raised when tracking is used outside a run started by an Axonal agent."""


def outputs_file() -> Path:
    """The outputs file of the current run; :class:`NotInRunError` outside a run."""
    value = os.environ.get(OUTPUTS_FILE_ENV)
    if not value:
        raise NotInRunError(
            f"not inside an Axonal run: {OUTPUTS_FILE_ENV} is not set "
            "(outputs can only be logged by a process an Axonal agent started)"
        )
    return Path(value)


def log_outputs(**values: Any) -> dict[str, Any]:
    """Merge ``values`` (JSON-serialisable) into the run's outputs; returns all outputs.

    The file is replaced atomically, so the agent never reads half a write.
    """
    path = outputs_file()
    current: dict[str, Any] = {}
    if path.exists():
        loaded = json.loads(path.read_text(encoding="utf-8") or "{}")
        current = loaded if isinstance(loaded, dict) else {}
    current.update(values)
    text = json.dumps(current, indent=2, sort_keys=True)  # fails before touching the file
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".outputs-", suffix=".json", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
        Path(tmp).replace(path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return current
