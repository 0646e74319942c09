"""The run a process tracks, and the channel its inputs, outputs, tags, progress and end take.

Channels: :class:`ApiChannel` (the api over HTTP, for runs created by ``init()`` and for a
managed run's tags and progress) and :class:`OfflineChannel` (records in a local folder, sent
later by ``axonal ops push``). ``httpx`` is imported by the api client only when it is used.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from axonal._errors import TrackingError
from axonal._offline import Recorder

if TYPE_CHECKING:
    from axonal._transport import Sender

__all__ = ["ApiChannel", "Channel", "Ender", "OfflineChannel", "Run"]

_RETRIES = 3


#: What ends a run: ``(status, message)``; :func:`axonal.tracking.end` for the runs it hands out.
Ender = Callable[[str, str | None], None]


class Channel(Protocol):
    def update(self, **fields: Any) -> dict[str, Any]:
        """Merge ``inputs``/``outputs``, add ``tags``, set ``progress``; the run's outputs."""

    def end(self, status: str, message: str | None) -> None:
        """Give the run its final status."""


@dataclass
class Run:
    """A handle on the tracked run: ``with tracking.init(...) as run:`` ends it on exit."""

    uuid: str
    project: str | None
    managed: bool = False
    channel: Channel | None = field(default=None, repr=False)
    offline_dir: Path | None = None
    status: str = "running"
    sender: Callable[[], Sender] | None = field(default=None, repr=False)
    spool_file: Path | None = field(default=None, repr=False)  # None: the usual spool folder
    #: Set by ``init()`` (``tracking.end``): the run does not import the module that owns it.
    ender: Ender | None = field(default=None, repr=False)

    @property
    def ended(self) -> bool:
        return self.status != "running"

    def end(self, status: str = "succeeded", message: str | None = None) -> None:
        """End the run (see :func:`axonal.tracking.end`)."""
        if self.ender is None:
            raise TrackingError(f"run {self.uuid} was not handed out by axonal.tracking.init()")
        self.ender(status, message)

    def __enter__(self) -> Run:
        return self

    def __exit__(self, kind: type[BaseException] | None, value: object, _: object) -> None:
        if self.managed or self.ended:
            return
        if kind is None:
            self.end()
        elif issubclass(kind, KeyboardInterrupt):
            self.end("stopped", "interrupted")
        else:
            self.end("failed", f"{kind.__name__}: {value}")


class ApiChannel:
    """``/api/v1/<project>/runs`` calls, retried on connection errors and 5xx answers."""

    def __init__(self, api_url: str, project: str, token: str | None) -> None:
        from axonal.api_client import ApiClient  # noqa: PLC0415

        self._client = ApiClient(api_url, token=token or "", timeout=10.0)
        self._runs = f"/api/v1/{project}/runs"
        self.run_uuid = ""

    def create(self, run_uuid: str, **fields: Any) -> dict[str, Any]:
        """Create the run (or find it: the uuid makes this idempotent)."""
        self.run_uuid = run_uuid
        body = {"uuid": run_uuid, **fields}
        found: dict[str, Any] = self._call("POST", f"{self._runs}/tracked", json=body)
        return found

    def update(self, **fields: Any) -> dict[str, Any]:
        found = self._call("PATCH", f"{self._runs}/{self.run_uuid}", json=fields)
        return dict(found.get("outputs") or {})

    def end(self, status: str, message: str | None) -> None:
        body = {"status": status, "message": message}
        self._call("POST", f"{self._runs}/{self.run_uuid}/end", json=body)

    def _call(self, method: str, path: str, **kwargs: Any) -> Any:
        from axonal.api_client import ApiError  # noqa: PLC0415

        attempt = 1
        while True:
            try:
                return self._client.request(method, path, **kwargs)
            except ApiError as exc:
                transient = exc.status is None or exc.status >= 500 or exc.status == 429
                if not transient or attempt == _RETRIES:
                    raise TrackingError(exc.message) from None
            time.sleep(0.5 * 2**attempt)
            attempt += 1


class OfflineChannel:
    """Records every change in the offline folder; the outputs are merged locally."""

    def __init__(self, recorder: Recorder) -> None:
        self._recorder = recorder
        self._outputs: dict[str, Any] = {}

    def update(self, **fields: Any) -> dict[str, Any]:
        self._recorder.record("update", **fields)
        self._outputs.update(fields.get("outputs") or {})
        return dict(self._outputs)

    def end(self, status: str, message: str | None) -> None:
        self._recorder.record("end", status=status, message=message)
