"""A run section's ``init`` items as init containers, in their order (pure).

Every step works in the artifacts volume, at the paths the local agent uses: a relative
``path`` is inside :data:`CONTEXT_ARTIFACTS`, an absolute one must be. A step whose
destination exists already is skipped (init containers that run again in a restarted pod,
or another pod of the attempt on the same artifacts claim, find it done), and files and
clones are made under a temporary name, then renamed into place.

- ``git``: ``git clone`` (with ``flags``) of ``url``, or of the ``url`` of its git
  ``connection``, into ``path`` or the repository's name, then ``revision`` checked out;
  in the cluster's ``git_image``.
- ``file``: ``content`` written to ``path/filename`` (``file``), then ``chmod``.
- ``dockerfile``: the Dockerfile it describes written to ``path/filename`` (``Dockerfile``).
- ``artifacts`` (``files``, ``dirs``) and ``paths``: copied from the artifacts store (the
  cluster's ``store_claim``; relative sources) to the given target or ``path/<name>``.
  ``workers`` (parallel downloads from a bucket) has nothing to do in a copy.
- ``connection`` alone: a git connection is cloned as above.
- ``container`` alone is an init container as written; next to a kind, its fields override
  the generated container's (its env and mounts are added).

A step's connection brings its secrets, config maps and env into the step's container.
Anything else (``tensorboard``, ``lineageRef``, ``modelRef``, ``artifactRef``, an
``artifacts`` step on a connection, a connection that is not git) raises
:class:`InvalidRunError` naming the item.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import PurePosixPath
from typing import Any

from axonal_agent.domain.command import InvalidRunError
from axonal_agent.domain.init_steps import parse_chmod, source_pairs
from axonal_agent.domain.kube.connections import add_to, lookup
from axonal_agent.domain.kube.containers import container_spec, merge_env
from axonal_agent.domain.kube.dockerfile import dockerfile
from axonal_agent.domain.kube.target import CONTEXT_ARTIFACTS, STORE_PATH, Connection, Target
from axonal_agent.domain.kube.volumes import (
    artifacts_mount,
    store_mount,
    store_volume,
)
from axonal_spec.models.k8s import INIT_KINDS

__all__ = ["InitContainers", "init_containers"]

#: Beyond this, a file's content does not fit in one environment variable of ``exec``.
_MAX_CONTENT = 120_000

_GIT = """set -e
dest=$1 revision=$2
shift 2
[ -e "$dest" ] && exit 0
mkdir -p "$(dirname "$dest")"
tmp="$dest.$HOSTNAME.tmp"
rm -rf "$tmp"
git clone "$@" "$tmp"
[ -z "$revision" ] || git -C "$tmp" checkout -q "$revision"
if [ -e "$dest" ]; then rm -rf "$tmp"; else mv "$tmp" "$dest"; fi
"""
_FILE = """set -e
[ -e "$1" ] && exit 0
mkdir -p "$(dirname "$1")"
tmp="$1.$HOSTNAME.tmp"
printf '%s' "$AXONAL_INIT_CONTENT" > "$tmp"
[ -z "$2" ] || chmod "$2" "$tmp"
mv -f "$tmp" "$1"
"""
_COPY = """set -e
while [ $# -gt 0 ]; do
  src=$1 dest=$2
  shift 2
  [ -e "$dest" ] && continue
  mkdir -p "$(dirname "$dest")"
  tmp="$dest.$HOSTNAME.tmp"
  rm -rf "$tmp"
  cp -R "$src" "$tmp"
  if [ -e "$dest" ]; then rm -rf "$tmp"; else mv "$tmp" "$dest"; fi
done
"""


@dataclass(frozen=True, slots=True)
class InitContainers:
    """The init containers of a pod and the volumes they need beyond the artifacts one."""

    containers: list[dict[str, Any]] = field(default_factory=list)
    volumes: list[dict[str, Any]] = field(default_factory=list)


@dataclass(slots=True)
class _Step:
    target: Target
    name: str
    where: str
    volumes: list[dict[str, Any]]


def _inside(path: str | None, default: str, where: str) -> str:
    text = path or default
    pure = PurePosixPath(text)
    if ".." in pure.parts:
        raise InvalidRunError(f"{where}: {text!r} leaves the artifacts folder")
    if not pure.is_absolute():
        return str(PurePosixPath(CONTEXT_ARTIFACTS) / pure)
    if not pure.is_relative_to(CONTEXT_ARTIFACTS):
        raise InvalidRunError(
            f"{where}: {text!r} is outside {CONTEXT_ARTIFACTS}, the only folder the init "
            "steps share with the run"
        )
    return text


def _script(name: str, image: str, script: str, args: list[str]) -> dict[str, Any]:
    """A shell step (its arguments never pass through the shell's parser); when it fails,
    its status message is the end of its log (``git``'s error)."""
    return {
        "name": name,
        "image": image,
        "command": ["/bin/sh", "-c", script, name, *args],
        "terminationMessagePolicy": "FallbackToLogsOnError",
    }


def _repo_name(url: str) -> str:
    tail = url.rstrip("/").rsplit("/", 1)[-1].rsplit(":", 1)[-1]
    return tail.removesuffix(".git") or "repository"


def _git(
    spec: Mapping[str, Any], item: Mapping[str, Any], conn: Connection | None, step: _Step
) -> dict[str, Any]:
    url = spec.get("url") or (conn.schema.get("url") if conn is not None else None)
    if not url:
        raise InvalidRunError(f"{step.where}.git: no url, and no git connection giving one")
    dest = _inside(item.get("path"), _repo_name(str(url)), f"{step.where}.path")
    flags = [str(flag) for flag in spec.get("flags") or []]
    args = [dest, str(spec.get("revision") or ""), *flags, "--", str(url)]
    return _script(step.name, step.target.cluster.git_image, _GIT, args)


def _file(
    content: str, filename: str, mode: str | None, item: Mapping[str, Any], step: _Step
) -> dict[str, Any]:
    if len(content.encode()) > _MAX_CONTENT:
        raise InvalidRunError(
            f"{step.where}: the content is over {_MAX_CONTENT} bytes; put it in the artifacts"
        )
    if mode is not None:
        mode = _chmod(mode)
    where = f"{step.where}.path"
    dest = _inside(str(PurePosixPath(item.get("path") or ".") / filename), filename, where)
    container = _script(step.name, step.target.cluster.tools_image, _FILE, [dest, mode or ""])
    container["env"] = [{"name": "AXONAL_INIT_CONTENT", "value": content}]
    return container


def _chmod(mode: str) -> str:
    """``chmod``'s spelling of a mode: ``"+x"`` -> ``"a+x"`` (never read as an option),
    ``"0o755"`` -> ``"755"``; :class:`InvalidRunError` for a mode it would not understand."""
    text = mode.strip()
    bits = parse_chmod(text, 0)
    return f"a{text}" if text.startswith(("+", "-")) else f"{bits:o}"


def _copy(
    pairs: list[tuple[str, str | None]], item: Mapping[str, Any], step: _Step
) -> dict[str, Any]:
    claim = step.target.cluster.store_claim
    if claim is None:
        raise InvalidRunError(f"{step.where}: this agent has no artifacts store to copy from")
    args: list[str] = []
    for source, to in pairs:
        pure = PurePosixPath(source)
        if pure.is_absolute() or ".." in pure.parts:
            raise InvalidRunError(
                f"{step.where}: {source!r} must be a path inside the artifacts store"
            )
        default = str(PurePosixPath(item.get("path") or ".") / pure.name)
        args += [f"{STORE_PATH}/{pure}", _inside(to or default, default, step.where)]
    container = _script(step.name, step.target.cluster.tools_image, _COPY, args)
    container["volumeMounts"] = [store_mount()]
    step.volumes.append(store_volume(claim))
    return container


def _written(kind: str, value: Any, item: Mapping[str, Any], step: _Step) -> dict[str, Any]:
    """A ``file`` or ``dockerfile`` step: its text written into the artifacts volume."""
    where = f"{step.where}.{kind}"
    if not isinstance(value, Mapping):
        raise InvalidRunError(f"{where}: expected a mapping, got {value!r}")
    if kind == "dockerfile":
        filename = str(value.get("filename") or "Dockerfile")
        return _file(dockerfile(value, where), filename, None, item, step)
    if not isinstance(value.get("content"), str):
        raise InvalidRunError(f"{where}.content: a file needs a text content")
    filename = str(value.get("filename") or "file")
    return _file(value["content"], filename, value.get("chmod"), item, step)


def _generated(
    item: Mapping[str, Any], kind: str | None, conn: Connection | None, step: _Step
) -> dict[str, Any] | None:
    """The container of a kind of step; ``None`` for a ``container`` alone."""
    value = item.get(kind) if kind else None
    where = f"{step.where}.{kind or 'connection'}"
    if kind == "git" or (kind is None and conn is not None and conn.kind == "git"):
        return _git(value or {}, item, conn, step)
    if kind is None:
        if conn is None:
            return None
        raise InvalidRunError(
            f"{where}: pulling the {conn.kind} connection {conn.name!r} is not supported on "
            "Kubernetes (git connections are cloned)"
        )
    if kind in ("file", "dockerfile"):
        return _written(kind, value, item, step)
    if kind in ("artifacts", "paths") and conn is not None:
        raise InvalidRunError(
            f"{where}: copying from the {conn.kind} connection {conn.name!r} is not supported "
            "on Kubernetes (only from the agent's artifacts store)"
        )
    if kind == "paths":
        return _copy(source_pairs(value, where), item, step)
    if kind == "artifacts" and isinstance(value, Mapping):
        files = source_pairs(value.get("files"), f"{where}.files")
        return _copy(files + source_pairs(value.get("dirs"), f"{where}.dirs"), item, step)
    raise InvalidRunError(f"{where}: not supported on Kubernetes")


def _override(generated: dict[str, Any], raw: Any, where: str) -> dict[str, Any]:
    """``generated`` with the fields of the item's own container; env and mounts added."""
    own = container_spec(raw, where=where, name=generated["name"], default_image=generated["image"])
    merged = {**generated, **own}
    for key in ("volumeMounts", "envFrom"):
        both = [*generated.get(key, []), *own.get(key, [])]
        if both:
            merged[key] = both
    env = merge_env(own.get("env", []), generated.get("env", []))
    if env:
        merged["env"] = env
    return merged


def init_containers(items: Any, target: Target, where: str) -> InitContainers:
    """The init containers of ``items`` (a section's ``init``); ``where`` prefixes the field
    names in errors (``worker.`` for a replica)."""
    if items is None:
        return InitContainers()
    if not isinstance(items, list):
        raise InvalidRunError(f"{where}init: expected a list of init items")
    result = InitContainers()
    for index, item in enumerate(items):
        at = f"{where}init[{index}]"
        if not isinstance(item, Mapping):
            raise InvalidRunError(f"{at}: expected a mapping, got {item!r}")
        kind = next((k for k in INIT_KINDS if item.get(k) is not None), None)
        conn = None
        if item.get("connection"):
            catalog = target.cluster.connections
            conn = lookup(str(item["connection"]), catalog, f"{at}.connection")
        step = _Step(target, f"plx-init-{index}", at, result.volumes)
        container = _generated(item, kind, conn, step)
        if container is None:
            raw = item.get("container")
            name = str((raw or {}).get("name") or step.name)
            container = container_spec(
                raw,
                where=f"{at}.container",
                name=name,
                default_image=target.cluster.default_image,
            )
        elif item.get("container") is not None:
            container = _override(container, item["container"], f"{at}.container")
        container["volumeMounts"] = [artifacts_mount(target), *container.get("volumeMounts", [])]
        if conn is not None:
            add_to(container, [conn], result.volumes)
        result.containers.append(container)
    return result
