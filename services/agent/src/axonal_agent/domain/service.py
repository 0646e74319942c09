"""A service run: its declared ports, how to tell that it answers, its URLs and env (pure).

The local executor gives each declared port a free port of its host and serves the service
at the root: ``{{ globals.ports[i] }}`` and ``{{ globals.base_url }}`` (placeholders until
then, :mod:`axonal_spec.service_values`) become those ports and ``/`` as the process starts.
The service is ready once its first port (or ``termination.probe.http.port``) accepts a TCP
connection, or, with ``termination.probe.http.path``, answers a GET of it with 2xx or 3xx.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from axonal_agent.domain.command import InvalidRunError

__all__ = [
    "LOCAL_BASE_URL",
    "LOCAL_HOST",
    "ServiceSpec",
    "answered",
    "endpoints",
    "service_env",
    "service_spec",
]

LOCAL_HOST = "127.0.0.1"
LOCAL_BASE_URL = "/"


@dataclass(frozen=True, slots=True)
class ServiceSpec:
    """The declared ``ports``; the readiness check: a GET of ``http_path`` (``None``: a TCP
    connect) on the port at ``probe_index``."""

    ports: tuple[int, ...]
    http_path: str | None = None
    probe_index: int = 0


def _port(value: Any, where: str) -> int:
    number = value
    if isinstance(value, str) and value.strip().isdigit():
        number = int(value)
    if isinstance(number, bool) or not isinstance(number, int) or not 0 < number < 65536:
        raise InvalidRunError(f"{where}: not a port number: {value!r}")
    return number


def service_spec(run: Mapping[str, Any], probe: Mapping[str, Any]) -> ServiceSpec | None:
    """The service a run section declares (``None`` for any other kind); ``probe`` is the
    operation's ``termination.probe``. :class:`InvalidRunError` for a bad port."""
    if run.get("kind") != "service":
        return None
    declared = run.get("ports") or []
    if not isinstance(declared, list):
        raise InvalidRunError(f"ports: expected a list of port numbers, got {declared!r}")
    ports = tuple(_port(p, f"ports[{i}]") for i, p in enumerate(declared))
    http = probe.get("http")
    if not isinstance(http, Mapping):
        return ServiceSpec(ports)
    path = str(http.get("path") or "/")
    index = 0
    if http.get("port") is not None:
        port = _port(http["port"], "termination.probe.http.port")
        if port not in ports:
            raise InvalidRunError(
                f"termination.probe.http.port: {port} is not a port of the service {list(ports)}"
            )
        index = ports.index(port)
    return ServiceSpec(ports, path if path.startswith("/") else f"/{path}", index)


def endpoints(
    declared: Sequence[int], allocated: Sequence[int], host: str = LOCAL_HOST
) -> dict[str, str]:
    """The service's URLs by declared port: ``{"6006": "http://127.0.0.1:41234/"}``."""
    pairs = zip(declared, allocated, strict=True)
    return {str(port): f"http://{host}:{local}{LOCAL_BASE_URL}" for port, local in pairs}


def service_env(allocated: Sequence[int], host: str = LOCAL_HOST) -> dict[str, str]:
    """``AXONAL_SERVICE_PORT`` (the first), ``AXONAL_SERVICE_PORTS`` (comma-separated),
    ``AXONAL_SERVICE_URL`` and ``AXONAL_SERVICE_BASE_URL`` for the process."""
    if not allocated:
        return {}
    return {
        "AXONAL_SERVICE_PORT": str(allocated[0]),
        "AXONAL_SERVICE_PORTS": ",".join(str(port) for port in allocated),
        "AXONAL_SERVICE_URL": f"http://{host}:{allocated[0]}{LOCAL_BASE_URL}",
        "AXONAL_SERVICE_BASE_URL": LOCAL_BASE_URL,
    }


def answered(status_line: bytes) -> bool:
    """Whether an HTTP status line (``HTTP/1.0 200 OK``) says the service is ready (2xx, 3xx)."""
    parts = status_line.split()
    if len(parts) < 2 or not parts[0].startswith(b"HTTP/") or not parts[1].isdigit():
        return False
    return 200 <= int(parts[1]) < 400
