"""A service's ports and base URL: the executor's to choose, filled in when it starts.

A local agent picks free ports and serves each at its root; another executor may keep the
declared ports behind a proxy path. So templates do not render them at compile time:
``{{ globals.ports[i] }}``, ``{{ globals.ports }}`` and ``{{ globals.base_url }}`` (alone or
inside a string) render to placeholders spelled as those templates, and the executor
replaces each placeholder with its value (:func:`fill_service_values`) as the process starts.
A template computing with them (``{{ globals.ports[0] + 1 }}``, a filter) is not supported.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

__all__ = [
    "BASE_URL_PLACEHOLDER",
    "fill_service_values",
    "port_placeholder",
    "service_globals",
    "service_ports",
]

BASE_URL_PLACEHOLDER = "{{ globals.base_url }}"


def port_placeholder(index: int) -> str:
    """What ``{{ globals.ports[index] }}`` compiles to."""
    return f"{{{{ globals.ports[{index}] }}}}"


def service_ports(run: Mapping[str, Any]) -> list[Any] | None:
    """The ports a run section declares: ``None`` unless it is a service (a list otherwise,
    empty while ``ports`` is still a template)."""
    if run.get("kind") != "service":
        return None
    ports = run.get("ports")
    return list(ports) if isinstance(ports, list) else []


def service_globals(declared: Sequence[Any]) -> dict[str, Any]:
    """The ``ports`` and ``base_url`` globals of a service declaring ``declared`` ports."""
    ports = [port_placeholder(i) for i in range(len(declared))]
    return {"ports": ports, "base_url": BASE_URL_PLACEHOLDER}


def fill_service_values(value: Any, ports: Sequence[int], base_url: str) -> Any:
    """``value`` with every placeholder in its strings replaced (dicts and lists walked)."""
    if isinstance(value, Mapping):
        return {k: fill_service_values(v, ports, base_url) for k, v in value.items()}
    if isinstance(value, list):
        return [fill_service_values(v, ports, base_url) for v in value]
    if not isinstance(value, str) or "{{" not in value:
        return value
    for index, port in enumerate(ports):
        value = value.replace(port_placeholder(index), str(port))
    return value.replace(BASE_URL_PLACEHOLDER, base_url)
