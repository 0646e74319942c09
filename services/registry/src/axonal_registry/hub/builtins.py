"""The built-in components shipped with the spec library, as read-only hub versions."""

from __future__ import annotations

from functools import cache

import yaml

from axonal_registry.domain.hub import BUILTIN_OWNER, LATEST, ComponentVersion, describe
from axonal_spec.hub import builtin_hub

__all__ = ["aliases", "builtin_versions"]

_SUFFIXES = (".yaml", ".yml")


def _stem(filename: str) -> str | None:
    for suffix in _SUFFIXES:
        if filename.endswith(suffix) and not filename.startswith("_"):
            return filename.removesuffix(suffix)
    return None


def builtin_versions() -> list[ComponentVersion]:
    """Every built-in version: ``<name>.yaml`` is ``name:latest``, ``<name>/<tag>.yaml``
    ``name:<tag>``."""
    found = []
    for entry in builtin_hub().directory.iterdir():
        if entry.is_dir():
            for item in entry.iterdir():
                tag = _stem(item.name)
                if tag is not None:
                    text = item.read_text(encoding="utf-8")
                    found.append(describe(BUILTIN_OWNER, entry.name, tag, text))
        elif (name := _stem(entry.name)) is not None:
            text = entry.read_text(encoding="utf-8")
            found.append(describe(BUILTIN_OWNER, name, LATEST, text))
    return sorted(found, key=lambda v: (v.name, v.tag))


@cache
def aliases() -> dict[str, str]:
    """Other names of built-in components (``dockerizer`` -> ``kaniko``)."""
    folder = builtin_hub().directory
    for suffix in _SUFFIXES:
        source = folder.joinpath("_aliases" + suffix)
        if source.is_file():
            loaded = yaml.safe_load(source.read_text(encoding="utf-8")) or {}
            return {str(k): str(v) for k, v in loaded.items()}
    return {}
