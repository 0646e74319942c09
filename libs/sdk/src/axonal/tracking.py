"""Track a run from inside its process (standard library only: it loads in every user job).

Outputs: the agent that runs a job tells it where to write through ``AXONAL_RUN_OUTPUTS_FILE``;
it reads the file when the process exits and reports the values as the run's outputs.

Metrics: :func:`log_metrics` queues points and returns at once; one background thread sends
them in batches to the backend the agent names (``AXONAL_NATS_URL``, else ``AXONAL_API_URL``)
for the run ``AXONAL_RUN_UUID``. The queue holds up to 1,000,000 points: when it is full (the
backend far behind), logging blocks until there is room. :func:`flush` runs at interpreter exit
and on SIGTERM (unless the program handles SIGTERM itself). While the backend is unreachable,
batches are kept in a spool file (``$AXONAL_TRACKING_SPOOL`` or ``~/.axonal/spool``) and sent
later, by this process or the next one of the run.
"""

from __future__ import annotations

import atexit
import json
import math
import numbers
import os
import re
import signal
import tempfile
import threading
from collections.abc import Mapping
from pathlib import Path
from types import FrameType
from typing import Any

from axonal._metrics import Writer
from axonal._transport import destination_from_env

__all__ = [
    "NotInRunError",
    "flush",
    "log_metric",
    "log_metrics",
    "log_outputs",
    "outputs_file",
]

OUTPUTS_FILE_ENV = "AXONAL_RUN_OUTPUTS_FILE"
RUN_UUID_ENV = "AXONAL_RUN_UUID"
SPOOL_ENV = "AXONAL_TRACKING_SPOOL"
#: The names the tracking service accepts (``axonal_events.metrics.METRIC_NAME_PATTERN``).
_NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_./:-]{0,199}")
_MAX_STEP = 2**62
#: Names already checked: a training loop logs the same few names again and again.
_GOOD_NAMES: set[str] = set()

_writer: Writer | None = None
_writer_lock = threading.Lock()


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


def log_metrics(step: int | None = None, **values: float) -> None:
    """Log ``name=value`` points of the current run at ``step``.

    Without ``step``, each name takes its next step: 0, then one more than its last step.
    Values must be finite real numbers; a bad name, value or step raises ``ValueError`` here.
    Returns at once (see the module doc for when it blocks). A metric named ``step`` is logged
    with :func:`log_metric`.
    """
    _log(values, step)


def log_metric(name: str, value: float, step: int | None = None) -> None:
    """Log one point; see :func:`log_metrics`."""
    _log({name: value}, step)


def flush(timeout: float = 30.0) -> bool:
    """Wait up to ``timeout`` s until every point logged so far is delivered.

    Returns early, True, once all is in the spool file while the backend is unreachable. At the
    timeout, what is left is spooled; True when every point is delivered or spooled.
    """
    writer = _writer
    return True if writer is None else writer.flush(timeout)


def _log(values: Mapping[str, object], step: object) -> None:
    checked = {_check_name(name): _check_value(name, value) for name, value in values.items()}
    at_step = None if step is None else _check_step(step)
    _current_writer().log(checked, at_step)


def _check_name(name: object) -> str:
    if name in _GOOD_NAMES:  # the hot path: a training loop logs the same few names
        return name
    if not isinstance(name, str) or not _NAME.fullmatch(name):
        raise ValueError(
            f"bad metric name {name!r}: 1 to 200 letters, digits or _ . / : - "
            "(not starting with . / : -)"
        )
    if len(_GOOD_NAMES) < 10_000:
        _GOOD_NAMES.add(name)
    return name


def _check_value(name: str, value: object) -> float:
    if type(value) is float and math.isfinite(value):  # the hot path, exact type only
        return value
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise ValueError(f"metric {name!r}: the value must be a real number, not {value!r}")
    number = float(value)
    if not math.isfinite(number):
        raise ValueError(f"metric {name!r}: the value must be finite, not {number!r}")
    return number


def _check_step(step: object) -> int:
    if type(step) is int and 0 <= step <= _MAX_STEP:  # the hot path
        return step
    if isinstance(step, bool) or not isinstance(step, numbers.Integral):
        raise ValueError(f"the step must be an integer, not {step!r}")
    if not 0 <= int(step) <= _MAX_STEP:
        raise ValueError(f"the step must be between 0 and 2**62, not {step}")
    return int(step)


def _current_writer() -> Writer:
    global _writer  # noqa: PLW0603 - one writer per process, started on first use
    if _writer is not None:
        return _writer
    with _writer_lock:
        if _writer is None:
            _writer = _start_writer()
        return _writer


def _start_writer() -> Writer:
    """The writer of the run named by the environment, flushed at exit and on SIGTERM."""
    run_uuid = os.environ.get(RUN_UUID_ENV, "").replace("-", "").lower()
    if not run_uuid:
        raise NotInRunError(
            f"not inside an Axonal run: {RUN_UUID_ENV} is not set "
            "(metrics can only be logged by a process an Axonal agent started)"
        )
    if not re.fullmatch(r"[0-9a-f]{32}", run_uuid):
        raise NotInRunError(f"{RUN_UUID_ENV} is not a run uuid: {run_uuid!r}")
    destination = destination_from_env(run_uuid)
    if destination is None:
        raise NotInRunError(
            f"not inside an Axonal run: {RUN_UUID_ENV} is set but neither AXONAL_NATS_URL "
            "nor AXONAL_API_URL is"
        )
    # the NATS sender's asyncio needs it, and it cannot be imported once the interpreter exits
    import concurrent.futures.thread  # noqa: F401, PLC0415

    spool_dir = os.environ.get(SPOOL_ENV) or Path.home() / ".axonal" / "spool"
    writer = Writer(run_uuid, destination.open, Path(spool_dir) / f"{run_uuid}.jsonl")
    atexit.register(writer.close)
    main = threading.current_thread() is threading.main_thread()
    if main and signal.getsignal(signal.SIGTERM) is signal.SIG_DFL:
        signal.signal(signal.SIGTERM, _on_sigterm)
    return writer


def _on_sigterm(signum: int, frame: FrameType | None) -> None:
    """Flush, then die of SIGTERM as the default handler would."""
    writer = _writer
    if writer is not None:
        writer.close()
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    os.kill(os.getpid(), signal.SIGTERM)


def _forget_writer() -> None:
    """In a forked child: the parent's thread is gone; a new writer starts on first use."""
    global _writer, _writer_lock
    if _writer is not None:
        atexit.unregister(_writer.close)
    _writer, _writer_lock = None, threading.Lock()


os.register_at_fork(after_in_child=_forget_writer)
