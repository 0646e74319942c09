"""Load for the self-healing tests: OTLP spans posted to the api and an SDK-tracked run, each
keeping account of what was acknowledged."""

from __future__ import annotations

import os
import queue
import secrets
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest
from opentelemetry.proto.common.v1.common_pb2 import AnyValue, KeyValue
from opentelemetry.proto.resource.v1.resource_pb2 import Resource
from opentelemetry.proto.trace.v1.trace_pb2 import ResourceSpans, ScopeSpans, Span

__all__ = ["SdkRun", "SpanSender"]

OTLP_TRACES = "/api/public/otel/v1/traces"
PER_BATCH = 10


def export(trace_id: str, span_ids: list[str]) -> bytes:
    """One OTLP/HTTP protobuf export: a trace of ``span_ids``."""
    now = time.time_ns()
    spans = [
        Span(
            trace_id=bytes.fromhex(trace_id),
            span_id=bytes.fromhex(span_id),
            name=f"step-{index}",
            kind=Span.SPAN_KIND_INTERNAL,
            start_time_unix_nano=now + index * 1000,
            end_time_unix_nano=now + (index + 1) * 1000,
        )
        for index, span_id in enumerate(span_ids)
    ]
    service = KeyValue(key="service.name", value=AnyValue(string_value="self-healing"))
    resource = ResourceSpans(
        resource=Resource(attributes=[service]), scope_spans=[ScopeSpans(spans=spans)]
    )
    return ExportTraceServiceRequest(resource_spans=[resource]).SerializeToString()


class SpanSender(threading.Thread):
    """Posts a trace of ``PER_BATCH`` new spans every 50 ms until :meth:`finish`.

    ``acked``: span ids the api answered 200 for; ``refused``: answered otherwise or not at
    all (those may or may not be stored); ``sent`` is both. Every id starts with ``prefix``.
    """

    def __init__(self, api_url: str, auth: tuple[str, str]) -> None:
        super().__init__(name="span-sender", daemon=True)
        self.api_url = api_url
        self.auth = auth
        self.acked: set[str] = set()
        self.refused: set[str] = set()
        self.sent: set[str] = set()
        self.prefix = secrets.token_hex(2)
        self._paused = threading.Event()
        self._done = threading.Event()
        self._idle = threading.Event()

    def run(self) -> None:
        number = 0
        with httpx.Client(base_url=self.api_url, auth=self.auth, timeout=10) as http:
            while not self._done.is_set():
                if self._paused.is_set():
                    self._idle.set()
                    self._done.wait(0.05)
                    continue
                number += 1
                ids = [f"{self.prefix}{number:08x}{i:04x}" for i in range(PER_BATCH)]
                body = export(f"{self.prefix}{number:028x}", ids)
                self.sent.update(ids)
                try:
                    reply = http.post(
                        OTLP_TRACES,
                        content=body,
                        headers={"content-type": "application/x-protobuf"},
                    )
                    ok = reply.status_code == 200
                except httpx.HTTPError:
                    ok = False
                (self.acked if ok else self.refused).update(ids)
                self._done.wait(0.05)
        self._idle.set()

    def pause(self) -> None:
        """Stop sending; returns once no post is under way."""
        self._idle.clear()
        self._paused.set()
        self._idle.wait(30)

    def resume(self) -> None:
        self._paused.clear()

    def finish(self) -> None:
        self._done.set()
        if self.is_alive():
            self.join(30)


SCRIPT = """
import sys, time
from pathlib import Path
from axonal import tracking

folder = Path(sys.argv[1])
run = tracking.init(sys.argv[2], "self-healing")
print(run.uuid, flush=True)
step = 0
while not (folder / "stop").exists():
    if (folder / "pause").exists():
        tracking.flush(60)
        print(f"paused {step}", flush=True)
        while (folder / "pause").exists():
            time.sleep(0.05)
        continue
    tracking.log_metrics(step=step, loss=1.0 / (step + 1))
    step += 1
    time.sleep(0.01)
tracking.end()
print(f"done {step}", flush=True)
"""


class SdkRun:
    """A user's script logging a point of ``loss`` every 10 ms through ``axonal.tracking``
    (to the api, as from a laptop) until told to stop; then it ends the run, which flushes."""

    def __init__(self, folder: Path, api_url: str, project: str, token: str) -> None:
        self.folder = folder
        self.api_url = api_url
        self.project = project
        self.token = token
        self.uuid = ""
        self.logged = 0
        self.spool = folder / "spool"
        self._proc: subprocess.Popen[str] | None = None
        self._lines: queue.Queue[str] = queue.Queue()

    def start(self) -> None:
        env = {k: v for k, v in os.environ.items() if not k.startswith("AXONAL_")}
        env |= {
            "AXONAL_HOME": str(self.folder / "home"),
            "AXONAL_API_URL": self.api_url,
            "AXONAL_API_TOKEN": self.token,
            "AXONAL_TRACKING_SPOOL": str(self.spool),
        }
        self._proc = subprocess.Popen(
            [sys.executable, "-c", SCRIPT, str(self.folder), self.project],
            env=env,
            stdout=subprocess.PIPE,
            stderr=(self.folder / "sdk.err").open("w"),
            text=True,
        )
        threading.Thread(target=self._read, daemon=True).start()
        self.uuid = self._line(60).replace("-", "")

    def _read(self) -> None:
        assert self._proc is not None
        assert self._proc.stdout is not None
        for line in self._proc.stdout:
            self._lines.put(line.strip())

    def _line(self, timeout: float) -> str:
        try:
            return self._lines.get(timeout=timeout)
        except queue.Empty:
            raise TimeoutError(f"the SDK script said nothing: {self.stderr()}") from None

    def stderr(self) -> str:
        return (self.folder / "sdk.err").read_text()

    def pause(self) -> int:
        """Stop logging and flush (every point delivered): the points logged so far."""
        (self.folder / "pause").touch()
        return int(self._line(90).split()[1])

    def resume(self) -> None:
        (self.folder / "pause").unlink()

    def finish(self) -> int:
        """Stop, end the run (flushing what is left) and return how many points were logged."""
        (self.folder / "stop").touch()
        assert self._proc is not None
        assert self._proc.wait(90) == 0, self.stderr()
        while not (line := self._line(5)).startswith("done"):
            pass
        self.logged = int(line.split()[1])
        return self.logged

    def spool_is_empty(self) -> bool:
        return not any(path.stat().st_size for path in self.spool.glob("*"))

    def kill(self) -> None:
        if self._proc is not None and self._proc.poll() is None:
            self._proc.kill()
            self._proc.wait()
