"""The spool of typed artifacts not delivered yet: files beside the metric spool, sent in
order by a later call or at interpreter exit, with retries backing off while the backend is
away."""

from __future__ import annotations

import atexit
import json
import os
import sys
import threading
import time
from pathlib import Path
from typing import Any

from axonal._artifact_data import Encoded
from axonal._artifact_upload import (
    QUICK,
    ArtifactUploadError,
    Target,
    Unreachable,
    current_target,
    put,
)

__all__ = ["spool_for"]

_BACKOFF_START, _BACKOFF_MAX = 1.0, 60.0


class _Spool:
    """Typed artifacts not delivered yet, oldest first, as ``<id>.bin`` + ``<id>.json``."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._lock = threading.Lock()
        self._delay = 0.0
        self._retry_at = 0.0
        self._told = False
        self._at_exit = False

    def send(
        self, target: Target, path: str, params: dict[str, str], encoded: Encoded
    ) -> dict[str, Any] | None:
        """Upload now, after what waits in the spool; spool it while the backend is away."""
        with self._lock:
            if self._pending() and (time.monotonic() < self._retry_at or not self._drain(target)):
                self._add(path, params, encoded)
                return None
            try:
                record = put(
                    target, path, encoded.data, params, encoded.summary,
                    size=len(encoded.data), timeout=QUICK,
                )  # fmt: skip
            except Unreachable as exc:
                self._add(path, params, encoded)
                self._failed(str(exc))
                return None
            self._delay = 0.0
            return record

    def flush(self, target: Target) -> int:
        """Try to send what the spool holds now; how many artifacts are left."""
        with self._lock:
            self._drain(target)
            return len(self._pending())

    def _pending(self) -> list[Path]:
        try:
            return sorted(self.folder.glob("*.json"))
        except OSError:
            return []

    def _drain(self, target: Target) -> bool:
        """Send the spooled artifacts in order; False when the backend is still away."""
        for meta in self._pending():
            blob = meta.with_suffix(".bin")
            try:
                item = json.loads(meta.read_text())
                data = blob.read_bytes()
                put(
                    target, item["path"], data, item["params"], item["summary"],
                    size=len(data), timeout=QUICK,
                )  # fmt: skip
            except Unreachable as exc:
                self._failed(str(exc))
                return False
            except (ArtifactUploadError, OSError, ValueError, KeyError) as exc:
                _tell(f"a spooled artifact ({meta.stem}) is dropped: {exc}")
            meta.unlink(missing_ok=True)
            blob.unlink(missing_ok=True)
        self._delay = 0.0
        return True

    def _add(self, path: str, params: dict[str, str], encoded: Encoded) -> None:
        """Write the bytes, then the metadata (its appearance makes the entry complete)."""
        stem = f"{time.time_ns():020d}-{os.urandom(4).hex()}"
        meta = {"path": path, "params": params, "summary": encoded.summary}
        self.folder.mkdir(parents=True, exist_ok=True)
        (self.folder / f"{stem}.bin").write_bytes(encoded.data)
        partial = self.folder / f".{stem}.json"
        partial.write_text(json.dumps(meta))
        partial.replace(self.folder / f"{stem}.json")
        if not self._at_exit:
            self._at_exit = True
            atexit.register(_flush_at_exit, self)

    def _failed(self, reason: str) -> None:
        self._delay = min(self._delay * 2 or _BACKOFF_START, _BACKOFF_MAX)
        self._retry_at = time.monotonic() + self._delay
        if not self._told:
            self._told = True
            _tell(
                f"the backend is unreachable ({reason}); keeping artifacts in {self.folder} "
                "and retrying"
            )


_spools: dict[Path, _Spool] = {}
_spools_lock = threading.Lock()


def spool_for(target: Target) -> _Spool:
    root = Path(os.environ.get("AXONAL_TRACKING_SPOOL") or Path.home() / ".axonal" / "spool")
    folder = root / f"{target.run_uuid}.artifacts"
    with _spools_lock:
        return _spools.setdefault(folder, _Spool(folder))


def _flush_at_exit(spool: _Spool) -> None:
    try:
        left = spool.flush(current_target())
    except Exception as exc:  # noqa: BLE001 - at exit, say what is left and carry on
        left = -1
        _tell(f"the artifacts in {spool.folder} could not be sent ({exc})")
    if left > 0:
        _tell(
            f"{left} artifacts are not delivered yet; they stay in {spool.folder} and are "
            "sent by the next process of this run"
        )


def _tell(message: str) -> None:
    print(f"axonal.tracking: {message}", file=sys.stderr, flush=True)


def _new_locks() -> None:
    """In a forked child: a lock may be held by a thread that is gone; make new ones."""
    global _spools_lock  # noqa: PLW0603 - reset after fork
    _spools_lock = threading.Lock()
    for spool in _spools.values():
        spool._lock = threading.Lock()


os.register_at_fork(after_in_child=_new_locks)
