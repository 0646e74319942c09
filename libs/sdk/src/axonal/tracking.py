"""Track a run from its process (standard library only: it loads in every user job).

Runs: inside a run an Axonal agent started (``AXONAL_RUN_UUID`` set), everything goes to that
run. Elsewhere (a laptop, a notebook) :func:`init` creates a *non-managed* run through the api
(``AXONAL_API_URL``, token ``AXONAL_API_TOKEN``), or, offline (``offline=True`` or
``AXONAL_OFFLINE=1``), records it in a local folder that ``axonal ops push`` sends later. A run
:func:`init` created is ended by :func:`end`, else at interpreter exit: ``succeeded``, or
``failed`` after an uncaught exception or a non-zero ``sys.exit`` (``stopped`` after Ctrl-C or
SIGTERM).

Outputs: in a managed run, the agent tells the process where to write through
``AXONAL_RUN_OUTPUTS_FILE``; it reads the file when the process exits and reports the values
as the run's outputs (DAG ``ref``s read them from there).

Metrics: :func:`log_metrics` queues points and returns at once; one background thread sends
them in batches to the backend (``AXONAL_NATS_URL``, else the api; offline: the run's folder).
The queue holds up to 1,000,000 points: when it is full (the backend far behind), logging
blocks until there is room. :func:`flush` runs at interpreter exit and on SIGTERM (unless the
program handles SIGTERM itself). While the backend is unreachable, batches are kept in a spool
file (``$AXONAL_TRACKING_SPOOL`` or ``~/.axonal/spool``) and sent later, by this process or the
next one of the run.
"""

from __future__ import annotations

import atexit
import numbers
import os
import re
import signal
import sys
import threading
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from types import FrameType
from typing import Any

from axonal._artifacts import (
    ArtifactUploadError,
    Dataset,
    datasets_read,
    log_artifact,
    log_confusion_matrix,
    log_curve,
    log_dataframe,
    log_histogram,
    log_image,
    log_model,
    log_model_scores,
    log_text,
)
from axonal._checks import GOOD_NAMES as _GOOD_NAMES
from axonal._checks import check_name, check_step, check_tags, convert_values, json_ready
from axonal._errors import NO_RUN_HINT as _NO_RUN_HINT
from axonal._errors import NotInRunError, TrackingError
from axonal._exit import exit_status, set_exit_status, watch_exit
from axonal._metrics import Writer
from axonal._outputs import merge_outputs, outputs_file
from axonal._run import Channel, Run
from axonal._transport import Sender, destination_from_env

__all__ = [
    "ArtifactUploadError",
    "Dataset",
    "NotInRunError",
    "Run",
    "TrackingError",
    "end",
    "flush",
    "init",
    "log_artifact",
    "log_confusion_matrix",
    "log_curve",
    "log_dataframe",
    "log_histogram",
    "log_image",
    "log_inputs",
    "log_metric",
    "log_metrics",
    "log_model",
    "log_model_scores",
    "log_outputs",
    "log_progress",
    "log_tags",
    "log_text",
    "outputs_file",
]

RUN_UUID_ENV = "AXONAL_RUN_UUID"
SPOOL_ENV = "AXONAL_TRACKING_SPOOL"

_writer: Writer | None = None
_writer_lock = threading.Lock()
#: The run init() started or attached to; None before init().
_run: Run | None = None
#: The managed run's api channel (its tags, inputs, progress), made on first use.
_managed: Channel | None = None
#: Progress goes out at most once a second; the last value when the run ends or at exit.
PROGRESS_INTERVAL = 1.0
_progress_sent_at = float("-inf")
_progress_pending: float | None = None


def init(
    project: str | None = None,
    name: str | None = None,
    *,
    tags: list[str] | tuple[str, ...] | None = None,
    inputs: Mapping[str, Any] | None = None,
    description: str | None = None,
    offline: bool = False,
    offline_dir: str | os.PathLike[str] | None = None,
) -> Run:
    """Start tracking a run; returns its handle (``.uuid``, ``.project``, ``.end()``).

    Inside a run an Axonal agent started, attach to it (``tags``/``inputs`` are logged to it).
    Otherwise create a non-managed run in ``project`` (``owner/name``, default
    ``AXONAL_PROJECT``) through the api; it is ``running`` at once and ends with :func:`end`
    or at interpreter exit. ``offline=True`` (or ``AXONAL_OFFLINE=1``) uses no network: the
    run is recorded in ``offline_dir`` (default ``~/.axonal/offline/<uuid>``) for
    ``axonal ops push``. Raises ``ValueError`` for a bad project or tag and
    :class:`TrackingError` when the api refuses or cannot be reached.
    """
    global _run  # noqa: PLW0603 - one tracked run per process
    from axonal._session import open_run  # noqa: PLC0415 - httpx only when a run is made

    if _run is not None and not _run.ended:
        if _run.managed:
            return _run
        raise RuntimeError(f"run {_run.uuid} is being tracked already; call end() first")
    first = {"tags": check_tags(tags or ()), "inputs": json_ready(dict(inputs or {}))}
    run = open_run(
        project,
        name,
        {**first, "description": description},
        offline=offline,
        offline_dir=offline_dir,
    )
    run.ender = end
    _run = run
    if run.managed:
        if first["tags"] or first["inputs"]:
            _channel().update(**first)
        return run
    _close_writer()  # points logged before init() belong to no run
    _watch_exit()
    if run.offline_dir is not None:
        print(
            f"axonal.tracking: offline run {run.uuid} is recorded in {run.offline_dir}; "
            f"send it with `axonal ops push {run.offline_dir}`",
            file=sys.stderr,
        )
    return run


def end(status: str = "succeeded", message: str | None = None) -> None:
    """Flush the metrics, then give the run init() created its final status.

    ``status``: ``succeeded``, ``failed`` or ``stopped``. Ending again does nothing, and so
    does ending a run an agent executes (its agent reports the status). Without any run:
    :class:`NotInRunError`.
    """
    if status not in {"succeeded", "failed", "stopped"}:
        raise ValueError(f"status must be succeeded, failed or stopped, not {status!r}")
    run = _run
    if run is None:
        if os.environ.get(RUN_UUID_ENV):
            return  # a managed run: its agent reports the status
        raise NotInRunError(f"no run to end: {_NO_RUN_HINT}")
    if run.managed or run.ended:
        return
    _close_writer()
    _send_pending_progress()
    if run.channel is not None:
        run.channel.end(status, message)
    run.status = status


def log_inputs(**params: Any) -> None:
    """Merge ``params`` (JSON-serialisable) into the run's inputs; a :class:`Dataset` value is
    uploaded as an input artifact version, recorded as ``{"dataset": name, "sha256": ...}``."""
    _channel().update(inputs=json_ready(datasets_read(params)))


def log_tags(*tags: str) -> None:
    """Add ``tags`` to the run (each kept once)."""
    _channel().update(tags=check_tags(tags))


def log_progress(value: float) -> None:
    """Report how far the run is, from 0.0 to 1.0 (sent at most once a second, the latest
    value first; the last one when the run ends)."""
    global _progress_pending, _progress_sent_at  # noqa: PLW0603
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise ValueError(f"progress must be a number between 0 and 1, not {value!r}")
    if not 0.0 <= float(value) <= 1.0:
        raise ValueError(f"progress must be between 0 and 1, not {value}")
    now = time.monotonic()
    if now - _progress_sent_at < PROGRESS_INTERVAL:
        if _progress_pending is None:
            atexit.register(_send_pending_progress)
        _progress_pending = float(value)
        return
    _progress_pending, _progress_sent_at = None, now
    _channel().update(progress=float(value))


def _send_pending_progress() -> None:
    global _progress_pending
    atexit.unregister(_send_pending_progress)
    value, _progress_pending = _progress_pending, None
    if value is not None:
        try:
            _channel().update(progress=value)
        except Exception as exc:  # noqa: BLE001 - the last progress is not worth a crash
            print(f"axonal.tracking: the last progress was not sent ({exc})", file=sys.stderr)


def log_outputs(**values: Any) -> dict[str, Any]:
    """Merge ``values`` (JSON-serialisable) into the run's outputs; returns all outputs.

    In a managed run the outputs file is replaced atomically, so the agent never reads half a
    write; in a run init() created they go to the api (or the offline folder).
    """
    run = _run
    if run is not None and not run.managed and run.channel is not None:
        _check_open(run)
        return run.channel.update(outputs=json_ready(values))
    return merge_outputs(values)


def log_metrics(step: int | None = None, **values: float) -> None:
    """Log ``name=value`` points of the current run at ``step``.

    Without ``step``, each name takes its next step: 0, then one more than its last step.
    A value is anything ``float()`` takes (numpy scalars, 0-d arrays and tensors too); NaN and
    the infinities are stored as they are. A value that is no number (a string, a list) is
    dropped, with a warning on stderr once per metric: a value never stops the training loop.
    A bad name or step raises ``ValueError`` here. Returns at once (see the module doc for when
    it blocks). A metric named ``step`` is logged with :func:`log_metric`.
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


def _log(values: dict[str, Any], step: object) -> None:
    """Check ``values`` (a dict of the caller's own) in place, then queue them all."""
    converted = True
    for name, value in values.items():
        if name not in _GOOD_NAMES:  # the hot path: a training loop logs the same few names
            check_name(name)
        if type(value) is not float:  # exact floats (NaN and infinities too) pass as they are
            converted = False
    at_step = None if step is None else check_step(step)
    if not converted:
        convert_values(values)
    if values:
        _current_writer().log(values, at_step)


def _check_open(run: Run) -> None:
    if run.ended:
        raise NotInRunError(f"run {run.uuid} has ended ({run.status}): {_NO_RUN_HINT}")


def _channel() -> Channel:
    """Where inputs, tags and progress go: the run init() made, else the managed run's api."""
    global _managed  # noqa: PLW0603 - made once per process
    run = _run
    if run is not None and not run.managed and run.channel is not None:
        _check_open(run)
        return run.channel
    run_uuid = os.environ.get(RUN_UUID_ENV, "").replace("-", "").lower()
    if not run_uuid:
        raise NotInRunError(f"not inside an Axonal run: {_NO_RUN_HINT}")
    if _managed is None:
        from axonal._session import managed_channel  # noqa: PLC0415

        _managed = managed_channel(run_uuid)
    return _managed


def _watch_exit() -> None:
    """End the run init() made at exit: the exception hook and ``sys.exit`` tell how."""
    watch_exit(_end_at_exit)
    _catch_sigterm()


def _end_at_exit() -> None:
    status, message = exit_status()
    try:
        end(status, message)
    except Exception as exc:  # noqa: BLE001 - at exit, say it and let the interpreter end
        print(f"axonal.tracking: the run could not be ended ({exc})", file=sys.stderr)


def _close_writer() -> None:
    """Deliver (or spool) every point logged so far and stop the writer thread."""
    global _writer
    with _writer_lock:
        writer, _writer = _writer, None
    if writer is not None:
        atexit.unregister(writer.close)
        writer.close()


def _current_writer() -> Writer:
    global _writer  # noqa: PLW0603 - one writer per process, started on first use
    if _writer is not None:
        return _writer
    with _writer_lock:
        if _writer is None:
            _writer = _start_writer()
        return _writer


def _start_writer() -> Writer:
    """The writer of the current run, flushed at exit (or at its end) and on SIGTERM."""
    run = _run
    if run is not None and not run.managed and run.sender is not None:
        _check_open(run)
        spool = run.spool_file or _spool(run.uuid)
        return _new_writer(run.uuid, run.sender, spool, at_exit=False)
    run_uuid = os.environ.get(RUN_UUID_ENV, "").replace("-", "").lower()
    if not run_uuid:
        raise NotInRunError(f"not inside an Axonal run ({RUN_UUID_ENV} is not set): {_NO_RUN_HINT}")
    if not re.fullmatch(r"[0-9a-f]{32}", run_uuid):
        raise NotInRunError(f"{RUN_UUID_ENV} is not a run uuid: {run_uuid!r}")
    destination = destination_from_env(run_uuid)
    if destination is None:
        raise NotInRunError(
            f"not inside an Axonal run: {RUN_UUID_ENV} is set but neither AXONAL_NATS_URL "
            "nor AXONAL_API_URL is"
        )
    return _new_writer(run_uuid, destination.open, _spool(run_uuid))


def _spool(run_uuid: str) -> Path:
    spool_dir = os.environ.get(SPOOL_ENV) or Path.home() / ".axonal" / "spool"
    return Path(spool_dir) / f"{run_uuid}.jsonl"


def _new_writer(
    run_uuid: str, open_sender: Callable[[], Sender], spool: Path, *, at_exit: bool = True
) -> Writer:
    """A writer; closed at exit unless the run's end (also at exit) closes it."""
    # the NATS sender's asyncio needs it, and it cannot be imported once the interpreter exits
    import concurrent.futures.thread  # noqa: F401, PLC0415

    writer = Writer(run_uuid, open_sender, spool)
    if at_exit:
        atexit.register(writer.close)
    _catch_sigterm()
    return writer


def _catch_sigterm() -> None:
    """Flush (and end) on SIGTERM, unless the program handles SIGTERM itself."""
    main = threading.current_thread() is threading.main_thread()
    if main and signal.getsignal(signal.SIGTERM) is signal.SIG_DFL:
        signal.signal(signal.SIGTERM, _on_sigterm)


def _on_sigterm(signum: int, frame: FrameType | None) -> None:
    """Flush (and end a run init() made, ``stopped``), then die of SIGTERM as by default."""
    writer = _writer
    if writer is not None:
        writer.close()
    if _run is not None and not _run.managed:
        set_exit_status("stopped", "terminated (SIGTERM)")
        _end_at_exit()
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    os.kill(os.getpid(), signal.SIGTERM)


def _forget_writer() -> None:
    """In a forked child: the parent's thread is gone; a new writer starts on first use."""
    global _writer, _writer_lock
    if _writer is not None:
        atexit.unregister(_writer.close)
    _writer, _writer_lock = None, threading.Lock()


os.register_at_fork(after_in_child=_forget_writer)
