"""Where LLM traces go: settings from the environment, and the OpenTelemetry pipeline to the api.

The pipeline is the SDK's own ``TracerProvider`` (the application's global one is left alone)
with a ``BatchSpanProcessor`` exporting OTLP/HTTP protobuf, gzipped, with HTTP Basic project
keys. Failed exports never raise into the application: the first one is reported on stderr.
"""

from __future__ import annotations

import base64
import os
import sys
import threading
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, TypedDict, Unpack

if TYPE_CHECKING:
    from opentelemetry.sdk.trace import ReadableSpan, TracerProvider
    from opentelemetry.sdk.trace.export import SpanExporter, SpanExportResult

__all__ = ["OTLP_PATH", "TracingConfig", "TracingSettings", "build_provider", "report_once"]

OTLP_PATH = "/api/public/otel/v1/traces"
DEFAULT_URL = "http://127.0.0.1:8000"
SCOPE = "axonal"

_reported: set[str] = set()
_report_lock = threading.Lock()


def report_once(topic: str, message: str) -> None:
    """Print ``message`` on stderr the first time ``topic`` comes up in this process."""
    with _report_lock:
        if topic in _reported:
            return
        _reported.add(topic)
    print(f"axonal.tracing: {message}", file=sys.stderr)


def _env(*names: str) -> str | None:
    return next((os.environ[n] for n in names if os.environ.get(n)), None)


class TracingSettings(TypedDict, total=False):
    """What :func:`axonal.tracing.configure` may set (``None``: the environment's value)."""

    url: str | None
    public_key: str | None
    secret_key: str | None
    environment: str | None
    release: str | None
    run_uuid: str | None


@dataclass(frozen=True)
class TracingConfig:
    """The api to send to, the project keys, and what every span's resource says."""

    url: str = DEFAULT_URL
    public_key: str | None = None
    secret_key: str | None = None
    environment: str | None = None
    release: str | None = None
    run_uuid: str | None = None
    timeout: float = 10.0

    @classmethod
    def from_env(cls, **overrides: Unpack[TracingSettings]) -> TracingConfig:
        """``AXONAL_TRACING_URL``/``AXONAL_API_URL``, keys (``AXONAL_*`` or ``LANGFUSE_*``)...

        ``overrides`` left as ``None`` keep the environment's value.
        """
        found = cls(
            url=(_env("AXONAL_TRACING_URL", "AXONAL_API_URL") or DEFAULT_URL).rstrip("/"),
            public_key=_env("AXONAL_PUBLIC_KEY", "LANGFUSE_PUBLIC_KEY"),
            secret_key=_env("AXONAL_SECRET_KEY", "LANGFUSE_SECRET_KEY"),
            environment=_env("AXONAL_TRACING_ENVIRONMENT", "LANGFUSE_TRACING_ENVIRONMENT"),
            release=_env("AXONAL_RELEASE", "LANGFUSE_RELEASE"),
            run_uuid=_env("AXONAL_RUN_UUID"),
        )
        given: dict[str, Any] = {k: v for k, v in overrides.items() if v is not None}
        if "url" in given:
            given["url"] = given["url"].rstrip("/")
        return replace(found, **given)

    @property
    def authorization(self) -> str | None:
        """The ``Authorization`` header value, when both keys are known."""
        if not (self.public_key and self.secret_key):
            return None
        pair = f"{self.public_key}:{self.secret_key}".encode()
        return "Basic " + base64.b64encode(pair).decode()

    def resource_attributes(self) -> dict[str, str]:
        found = {
            "langfuse.environment": self.environment,
            "langfuse.release": self.release,
            "axonal.run.uuid": self.run_uuid,
        }
        return {key: value for key, value in found.items() if value}


def _reporting(exporter: SpanExporter, where: str) -> SpanExporter:
    """``exporter``, reporting its first failed export on stderr instead of dropping silently."""
    from opentelemetry.sdk.trace.export import (  # noqa: PLC0415 - OpenTelemetry loads on use
        SpanExporter,
        SpanExportResult,
    )

    class Reporting(SpanExporter):
        def export(self, spans: Sequence[ReadableSpan]) -> SpanExportResult:
            try:
                result = exporter.export(spans)
            except Exception as exc:  # noqa: BLE001 - exporting must never break the app
                report_once("export", f"cannot export spans to {where}: {exc}")
                return SpanExportResult.FAILURE
            if result is not SpanExportResult.SUCCESS:
                report_once("export", f"cannot export spans to {where} (spans dropped)")
            return result

        def shutdown(self) -> None:
            exporter.shutdown()

        def force_flush(self, timeout_millis: int = 30_000) -> bool:
            return exporter.force_flush(timeout_millis)

    return Reporting()


def _otlp_exporter(config: TracingConfig) -> SpanExporter | None:
    authorization = config.authorization
    if authorization is None:
        report_once(
            "keys",
            "no project keys (AXONAL_PUBLIC_KEY/AXONAL_SECRET_KEY): spans are not sent; "
            "create keys with `axonal keys create -p owner/project`",
        )
        return None
    from opentelemetry.exporter.otlp.proto.http import Compression  # noqa: PLC0415
    from opentelemetry.exporter.otlp.proto.http.trace_exporter import (  # noqa: PLC0415
        OTLPSpanExporter,
    )

    return OTLPSpanExporter(
        endpoint=config.url + OTLP_PATH,
        headers={"Authorization": authorization},
        timeout=config.timeout,
        compression=Compression.Gzip,
    )


def build_provider(config: TracingConfig, exporter: SpanExporter | None = None) -> TracerProvider:
    """A provider exporting to ``exporter`` (default: OTLP/HTTP to the api of ``config``)."""
    try:
        from opentelemetry.sdk.resources import Resource  # noqa: PLC0415
        from opentelemetry.sdk.trace import TracerProvider  # noqa: PLC0415
    except ImportError as exc:
        raise ImportError(
            "axonal.tracing needs OpenTelemetry: pip install 'axonal[tracing]'"
        ) from exc
    from opentelemetry.sdk.trace.export import BatchSpanProcessor  # noqa: PLC0415

    provider = TracerProvider(resource=Resource.create(config.resource_attributes()))
    target = exporter if exporter is not None else _otlp_exporter(config)
    if target is not None:
        where = config.url + OTLP_PATH if exporter is None else type(exporter).__name__
        provider.add_span_processor(BatchSpanProcessor(_reporting(target, where)))
    return provider
