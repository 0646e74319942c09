"""The process a job runs: its container's command and args, working directory and env.

The container image is not used by the local executor: the command runs on the agent's host.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from pathlib import Path, PurePosixPath
from typing import Any

__all__ = [
    "InvalidRunError",
    "build_argv",
    "build_env",
    "container_of",
    "localize",
    "run_context",
    "working_dir",
]

#: Variables of the agent's own environment that never reach a job (secrets, config).
_PRIVATE_PREFIXES = ("AXONAL_", "AWS_")

#: ``{{ globals.artifacts_path }}`` as the compiler renders it (``axonal_spec.context``); on
#: this host it is the run folder, where ``init`` steps put files and clones.
_CONTEXT_ARTIFACTS = PurePosixPath("/plx-context/artifacts")


class InvalidRunError(ValueError):
    """The run cannot be executed as it is (no command, wrong shapes)."""


def container_of(run: Mapping[str, Any]) -> dict[str, Any]:
    container = run.get("container")
    if not isinstance(container, dict):
        raise InvalidRunError("the run has no container")
    return container


def _strings(value: Any, what: str) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        return [str(item) for item in value]
    raise InvalidRunError(
        f"container {what} must be a string or a list, not {type(value).__name__}"
    )


def build_argv(run: Mapping[str, Any]) -> list[str]:
    """``command + args`` of the container (``["/bin/sh", "-c", "..."]`` forms as they are)."""
    container = container_of(run)
    argv = _strings(container.get("command"), "command") + _strings(container.get("args"), "args")
    if not argv:
        raise InvalidRunError("the container has neither command nor args: nothing to run")
    return argv


def working_dir(run: Mapping[str, Any], folder: Path) -> Path:
    """The container's ``workingDir`` when it exists on this host, else the run folder.

    A ``workingDir`` under the artifacts path (``{{ globals.artifacts_path }}/repo/src``) is
    the same place under the run folder, where ``init`` cloned or wrote it.
    """
    container = container_of(run)
    wanted = container.get("workingDir") or container.get("working_dir")
    if not wanted:
        return folder
    path = PurePosixPath(str(wanted))
    if path.is_relative_to(_CONTEXT_ARTIFACTS):
        relative = path.relative_to(_CONTEXT_ARTIFACTS)
        local = folder / relative
        return local if ".." not in relative.parts and local.is_dir() else folder
    return Path(path) if Path(path).is_dir() else folder


def localize(text: str, folder: Path, run_uuid: str) -> str:
    """``text`` with the context paths the compiler renders (``globals.run_artifacts_path``,
    then ``globals.artifacts_path``) pointing into the run folder, as :func:`working_dir`
    reads them: a Jupyter ``root_dir`` or a TensorBoard ``logdir`` then exists on this host."""
    if str(_CONTEXT_ARTIFACTS) not in text:
        return text
    pattern = rf"{re.escape(str(_CONTEXT_ARTIFACTS))}(?:/{re.escape(run_uuid)})?(?=/|\b|$)"
    return re.sub(pattern, lambda _: str(folder), text)


def container_env(run: Mapping[str, Any]) -> dict[str, str]:
    """``container.env`` (a list of ``{name, value}``); entries without a value are skipped."""
    items = container_of(run).get("env") or []
    if isinstance(items, dict):
        return {str(k): "" if v is None else str(v) for k, v in items.items()}
    env: dict[str, str] = {}
    for item in items:
        if isinstance(item, dict) and item.get("name") and "value" in item:
            value = item["value"]
            env[str(item["name"])] = "" if value is None else str(value)
    return env


def run_context(
    *,
    run_uuid: str,
    attempt: int,
    project: str,
    nats_url: str,
    namespace: str,
    folder: Path,
    outputs_file: Path,
    api_url: str | None = None,
    api_token: str | None = None,
) -> dict[str, str]:
    """The ``AXONAL_*`` variables that attach a process to its run (the shared contract)."""
    context = {
        "AXONAL_RUN_UUID": run_uuid,
        "AXONAL_RUN_ATTEMPT": str(attempt),
        "AXONAL_PROJECT": project,
        "AXONAL_NATS_URL": nats_url,
        "AXONAL_NAMESPACE": namespace,
        "AXONAL_RUN_ARTIFACTS_PATH": str(folder),
        "AXONAL_RUN_OUTPUTS_FILE": str(outputs_file),
    }
    if api_url:
        context["AXONAL_API_URL"] = api_url
    if api_token:
        context["AXONAL_API_TOKEN"] = api_token
    return context


def build_env(
    base: Mapping[str, str],
    run: Mapping[str, Any],
    to_env: Mapping[str, str],
    context: Mapping[str, str],
    *,
    tools: str | None = None,
) -> dict[str, str]:
    """The agent's env (minus its private settings) < ``container.env`` < toEnv < run context.

    ``tools`` (the folder of the agent's own interpreter) comes first on ``PATH``, so that
    ``python`` and ``axonal`` in a run are the platform's, with the SDK installed.
    """
    env = {k: v for k, v in base.items() if not k.startswith(_PRIVATE_PREFIXES)}
    if tools:
        rest = [p for p in env.get("PATH", "").split(os.pathsep) if p and p != tools]
        env["PATH"] = os.pathsep.join([tools, *rest])
    env.update(container_env(run))
    env.update(to_env)
    env.update(context)
    return env
