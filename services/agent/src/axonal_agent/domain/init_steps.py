"""Planning ``init`` steps of a run into concrete local actions (no I/O here).

Supported locally: ``file`` (write content), ``artifacts`` and ``paths`` (copy local files or
folders), ``git`` (clone a URL or local path). Other kinds need a cluster or a store and are
skipped with a note in the run's logs.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any

from axonal_agent.domain.command import InvalidRunError

__all__ = [
    "CopyStep",
    "FileStep",
    "GitStep",
    "InitStep",
    "SkippedStep",
    "parse_chmod",
    "plan_init",
    "source_pairs",
]


@dataclass(frozen=True, slots=True)
class FileStep:
    target: Path
    content: str
    mode: str | None = None


@dataclass(frozen=True, slots=True)
class CopyStep:
    source: Path
    target: Path


@dataclass(frozen=True, slots=True)
class GitStep:
    url: str
    target: Path
    revision: str | None = None
    flags: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class SkippedStep:
    kind: str
    why: str


InitStep = FileStep | CopyStep | GitStep | SkippedStep


def parse_chmod(mode: str, current: int) -> int:
    """``"755"``/``"0o755"`` -> 0o755; ``"+x"`` -> ``current`` plus execute bits."""
    text = mode.strip()
    if text.startswith(("+", "-")):
        bits = {"r": 0o444, "w": 0o222, "x": 0o111}
        change = 0
        for char in text[1:]:
            if char not in bits:
                raise InvalidRunError(f"init file chmod {mode!r} is not understood")
            change |= bits[char]
        return current | change if text[0] == "+" else current & ~change
    try:
        return int(text.removeprefix("0o"), 8)
    except ValueError:
        raise InvalidRunError(f"init file chmod {mode!r} is not understood") from None


def _inside(folder: Path, relative: str | None, default: str) -> Path:
    name = relative or default
    path = PurePosixPath(name)
    if path.is_absolute():
        return Path(path)
    if ".." in path.parts:
        raise InvalidRunError(f"init path {name!r} leaves the run folder")
    return folder / path


def _source(value: str, source_root: Path) -> Path:
    path = Path(value)
    return path if path.is_absolute() else source_root / path


def source_pairs(items: Any, what: str) -> list[tuple[str, str | None]]:
    """``["a", ["b", "c"]]`` -> ``[("a", None), ("b", "c")]``."""
    pairs: list[tuple[str, str | None]] = []
    for item in items or []:
        if isinstance(item, str):
            pairs.append((item, None))
        elif isinstance(item, list) and 1 <= len(item) <= 2:
            pairs.append((str(item[0]), str(item[1]) if len(item) == 2 else None))
        else:
            raise InvalidRunError(f"{what}: {item!r} must be a path or [from, to]")
    return pairs


def _copies(
    pairs: list[tuple[str, str | None]], folder: Path, base: str | None, source_root: Path
) -> list[InitStep]:
    steps: list[InitStep] = []
    for source, target in pairs:
        default = str(PurePosixPath(base or ".") / Path(source).name)
        steps.append(
            CopyStep(_source(source, source_root), _inside(folder, target or default, default))
        )
    return steps


def _repo_name(url: str) -> str:
    tail = url.rstrip("/").rsplit("/", 1)[-1].rsplit(":", 1)[-1]
    return tail.removesuffix(".git") or "repository"


def _plan_item(item: Mapping[str, Any], folder: Path, source_root: Path) -> list[InitStep]:
    path = item.get("path")
    if isinstance(item.get("file"), dict):
        spec = item["file"]
        if not isinstance(spec.get("content"), str):
            raise InvalidRunError("init file needs a text content")
        target = _inside(
            folder, str(PurePosixPath(path or ".") / (spec.get("filename") or "file")), "file"
        )
        return [FileStep(target, spec["content"], spec.get("chmod"))]
    if isinstance(item.get("git"), dict):
        spec = item["git"]
        url = spec.get("url")
        if not url:
            return [SkippedStep("git", "no url (a connection's repository needs a cluster)")]
        flags = tuple(str(flag) for flag in spec.get("flags") or [])
        return [
            GitStep(
                str(url), _inside(folder, path, _repo_name(str(url))), spec.get("revision"), flags
            )
        ]
    if isinstance(item.get("artifacts"), dict):
        spec = item["artifacts"]
        pairs = source_pairs(spec.get("files"), "init artifacts.files") + source_pairs(
            spec.get("dirs"), "init artifacts.dirs"
        )
        return _copies(pairs, folder, path, source_root)
    if item.get("paths") is not None:
        return _copies(source_pairs(item["paths"], "init paths"), folder, path, source_root)
    kinds = [key for key, value in item.items() if value is not None and key != "path"]
    kind = kinds[0] if kinds else "empty"
    return [SkippedStep(kind, "not supported by the local executor")]


def plan_init(run: Mapping[str, Any], folder: Path, source_root: Path) -> list[InitStep]:
    """The ordered local actions for ``run["init"]``, targets inside ``folder``.

    Relative artifact sources are read from ``source_root`` (the agent's artifacts folder).
    """
    items = run.get("init") or []
    if not isinstance(items, list):
        raise InvalidRunError("run init must be a list")
    steps: list[InitStep] = []
    for item in items:
        if not isinstance(item, dict):
            raise InvalidRunError(f"init entry {item!r} must be a mapping")
        steps.extend(_plan_item(item, folder, source_root))
    return steps
