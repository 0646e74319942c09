"""Connections from the agent's catalog as a container's volumes, mounts and env (pure).

A connection's Secret or ConfigMap with a ``mount_path`` is a volume mounted there read-only
(its ``items`` as files, every key when it lists none); without one, its items become
variables (``secretKeyRef``/``configMapKeyRef``), or every key is (``envFrom``) when it lists
none. Its ``env`` are plain variables. A name missing from the catalog is an
:class:`InvalidRunError` naming it.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from axonal_agent.domain.command import InvalidRunError
from axonal_agent.domain.kube.containers import EnvVar, merge_env
from axonal_agent.domain.kube.target import Connection, SourceRef

__all__ = ["Attached", "add_to", "attach", "lookup", "resolve"]


@dataclass(frozen=True, slots=True)
class Attached:
    """What connections add: ``volumes`` to the pod, the rest to a container."""

    volumes: list[dict[str, Any]] = field(default_factory=list)
    mounts: list[dict[str, Any]] = field(default_factory=list)
    env: list[EnvVar] = field(default_factory=list)
    env_from: list[dict[str, Any]] = field(default_factory=list)


def resolve(names: Any, catalog: Mapping[str, Connection], where: str) -> list[Connection]:
    """The catalog's connections named by ``names`` (a section's ``connections``)."""
    if names is None:
        return []
    if not isinstance(names, list) or not all(isinstance(name, str) for name in names):
        raise InvalidRunError(f"{where}: expected a list of connection names, got {names!r}")
    return [lookup(name, catalog, where) for name in names]


def lookup(name: str, catalog: Mapping[str, Connection], where: str) -> Connection:
    """One connection of the catalog, or :class:`InvalidRunError` naming it."""
    if name not in catalog:
        known = ", ".join(sorted(catalog)) or "none"
        raise InvalidRunError(f"{where}: unknown connection {name!r} (this agent has: {known})")
    return catalog[name]


def _volume_name(connection: Connection, what: str) -> str:
    """Unique per connection and DNS-1123, whatever characters its name has."""
    base = re.sub(r"[^a-z0-9]+", "-", connection.name.lower()).strip("-")[:30].strip("-")
    digest = hashlib.sha256(connection.name.encode()).hexdigest()[:8]
    return "-".join(part for part in ("conn", base, digest, what) if part)


def _source(ref: SourceRef, connection: Connection, what: str, attached: Attached) -> None:
    """Add ``ref`` (``what``: secret or configMap) to ``attached``."""
    if ref.mount_path:
        name = _volume_name(connection, what.lower())
        source: dict[str, Any] = (
            {"secretName": ref.name} if what == "secret" else {"name": ref.name}
        )
        if ref.items:
            source["items"] = [{"key": item, "path": item} for item in ref.items]
        attached.volumes.append({"name": name, what: source})
        attached.mounts.append({"name": name, "mountPath": ref.mount_path, "readOnly": True})
    elif ref.items:
        selector = "secretKeyRef" if what == "secret" else "configMapKeyRef"
        attached.env.extend(
            {"name": item, "valueFrom": {selector: {"name": ref.name, "key": item}}}
            for item in ref.items
        )
    else:
        attached.env_from.append({f"{what}Ref": {"name": ref.name}})


def attach(connections: Sequence[Connection]) -> Attached:
    """The volumes, mounts and env of ``connections`` (in their order)."""
    attached = Attached()
    for connection in connections:
        attached.env.extend({"name": k, "value": str(v)} for k, v in connection.env.items())
        if connection.secret is not None:
            _source(connection.secret, connection, "secret", attached)
        if connection.config_map is not None:
            _source(connection.config_map, connection, "configMap", attached)
    return attached


def add_to(
    container: dict[str, Any], connections: Sequence[Connection], volumes: list[dict[str, Any]]
) -> None:
    """Give ``container`` the env and mounts of ``connections`` (its own env wins) and add
    their volumes to ``volumes``."""
    attached = attach(connections)
    volumes.extend(attached.volumes)
    if attached.mounts:
        container["volumeMounts"] = [*container.get("volumeMounts", []), *attached.mounts]
    env = merge_env(container.get("env", []), attached.env)
    if env:
        container["env"] = env
    if attached.env_from:
        container["envFrom"] = [*container.get("envFrom", []), *attached.env_from]
