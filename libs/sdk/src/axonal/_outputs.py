"""The outputs file of a managed run: the agent names it, reads it when the process exits and
reports its values as the run's outputs (DAG ``ref``s read them from there)."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

from axonal._errors import NO_RUN_HINT, NotInRunError

__all__ = ["OUTPUTS_FILE_ENV", "merge_outputs", "outputs_file"]

OUTPUTS_FILE_ENV = "AXONAL_RUN_OUTPUTS_FILE"


def outputs_file() -> Path:
    """The outputs file of the current managed run; :class:`NotInRunError` outside one."""
    value = os.environ.get(OUTPUTS_FILE_ENV)
    if not value:
        raise NotInRunError(
            f"not inside an Axonal run ({OUTPUTS_FILE_ENV} is not set): {NO_RUN_HINT}"
        )
    return Path(value)


def merge_outputs(values: dict[str, Any]) -> dict[str, Any]:
    """Merge ``values`` into the outputs file, replaced atomically (the agent never reads half
    a write); every output. A file that cannot be replaced (Kubernetes mounts a container's
    termination log, read once the container ended, in a folder it may not write) is
    rewritten in place."""
    path = outputs_file()
    current: dict[str, Any] = {}
    if path.exists():
        loaded = json.loads(path.read_text(encoding="utf-8") or "{}")
        current = loaded if isinstance(loaded, dict) else {}
    current.update(values)
    text = json.dumps(current, indent=2, sort_keys=True)  # fails before touching the file
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        _replace(path, text)
    except OSError:
        path.write_text(text, encoding="utf-8")
    return current


def _replace(path: Path, text: str) -> None:
    fd, tmp = tempfile.mkstemp(prefix=".outputs-", suffix=".json", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
        Path(tmp).replace(path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
