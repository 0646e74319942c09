"""The Dockerfile an ``init`` ``dockerfile`` item describes (pure), as Polyaxon writes it:
``FROM image``, the language env, ``SHELL``, ``PATH`` additions, env, ``WORKDIR`` (``/code``),
``copy``, ``run``, ``postRunCopy`` steps, a user when ``uid`` and ``gid`` are given, and the
``workdirPath`` copied into the workdir."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from axonal_agent.domain.command import InvalidRunError

__all__ = ["dockerfile"]


def _pairs(value: Any, where: str) -> list[tuple[str, str]]:
    """Env as a mapping or a list of ``[name, value]``."""
    if value is None:
        return []
    items = list(value.items()) if isinstance(value, Mapping) else value
    if not isinstance(items, list) or not all(
        isinstance(item, list | tuple) and len(item) == 2 for item in items
    ):
        raise InvalidRunError(f"{where}: expected a mapping or a list of [name, value]")
    return [(str(name), str(text)) for name, text in items]


def _copies(value: Any, workdir: str, where: str) -> list[str]:
    """``COPY`` lines: an entry is a path (copied into the workdir) or ``[from, to]``."""
    lines: list[str] = []
    for item in value or []:
        if isinstance(item, str):
            lines.append(f"COPY {item} {workdir}")
        elif isinstance(item, list) and len(item) == 2:
            lines.append(f"COPY {item[0]} {item[1]}")
        else:
            raise InvalidRunError(f"{where}: {item!r} is neither a path nor [from, to]")
    return lines


def dockerfile(spec: Mapping[str, Any], where: str) -> str:
    """The Dockerfile text of an ``init`` item's ``dockerfile`` section."""
    if not spec.get("image"):
        raise InvalidRunError(f"{where}.image: a dockerfile needs a base image")
    workdir = str(spec.get("workdir") or "/code")
    lines = [f"FROM {spec['image']}"]
    if spec.get("langEnv"):
        lines += [f"ENV {name} {spec['langEnv']}" for name in ("LC_ALL", "LANG", "LANGUAGE")]
    lines.append(f"ENV SHELL {spec.get('shell') or '/bin/bash'}")
    lines += [f'ENV PATH="${{PATH}}:{step}"' for step in spec.get("path") or []]
    lines += [f"ENV {k}={json.dumps(v)}" for k, v in _pairs(spec.get("env"), f"{where}.env")]
    lines.append(f"WORKDIR {workdir}")
    lines += _copies(spec.get("copy"), workdir, f"{where}.copy")
    lines += [f"RUN {step}" for step in spec.get("run") or []]
    lines += _copies(spec.get("postRunCopy"), workdir, f"{where}.postRunCopy")
    if spec.get("uid") is not None and spec.get("gid") is not None:
        user = spec.get("username") or "axonal"
        lines.append(
            f"RUN groupadd -g {spec['gid']} -r {user} && "
            f"useradd -r -m -g {user} -u {spec['uid']} {user}"
        )
    if spec.get("workdirPath"):
        lines.append(f"COPY {spec['workdirPath']} {workdir}")
    return "\n".join(lines) + "\n"
