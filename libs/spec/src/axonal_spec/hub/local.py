"""The Component Hub seam: resolve a ``hubRef`` to a polyaxonfile document.

:class:`ComponentHub` is what the compiler calls. :class:`LocalHub` reads a folder laid out as::

    <name>.yaml              # the default version: `name` and `name:latest`
    <name>/<version>.yaml    # other versions: `name:<version>`
    _aliases.yaml            # optional {alias: name} (typos and former names)

(``.yml`` works too). The ``owner/`` part of a reference is accepted and ignored: a folder is
one owner's hub. :func:`builtin_hub` is the folder of components shipped with this package;
:class:`ChainHub` layers hubs (a user's or the registry's first, the built-ins last).
"""

from __future__ import annotations

import copy
import difflib
from collections.abc import Iterator, Mapping
from importlib.resources import files
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

import yaml

from axonal_spec.errors import SpecError
from axonal_spec.hub.refs import parse_hub_ref

__all__ = ["ChainHub", "ComponentHub", "LocalHub", "builtin_hub"]

_SUFFIXES = (".yaml", ".yml")
_ALIASES = "_aliases"
_DEFAULT_VERSION = "latest"


@runtime_checkable
class ComponentHub(Protocol):
    """Resolves ``[owner/]name[:version]`` to a component document (a fresh mapping each call).

    An unknown reference raises :class:`SpecError` located at ``hubRef`` (callers prefix it:
    ``err.prefixed("hooks", 0)``), with a hint naming close matches.
    """

    def resolve(self, ref: str) -> Mapping[str, Any]: ...


def _stems(folder: Traversable) -> Iterator[tuple[str, Traversable]]:
    for entry in folder.iterdir():
        for suffix in _SUFFIXES:
            if entry.is_file() and entry.name.endswith(suffix):
                yield entry.name.removesuffix(suffix), entry


def _hint(wanted: str, known: list[str], what: str) -> str:
    close = difflib.get_close_matches(wanted, known, n=3, cutoff=0.6)
    if close:
        return "did you mean " + " or ".join(f"`{c}`" for c in close) + "?"
    return f"known {what}: " + (", ".join(sorted(known)) or "none")


class LocalHub:
    """A hub backed by a folder (a path, or a package resource)."""

    def __init__(self, directory: Path | str | Traversable) -> None:
        self.directory: Traversable = Path(directory) if isinstance(directory, str) else directory
        self._cache: dict[tuple[str, str], dict[str, Any]] = {}

    def names(self) -> list[str]:
        """Every component name (aliases included), sorted."""
        found = {stem for stem, _ in _stems(self.directory) if not stem.startswith("_")}
        found |= {e.name for e in self.directory.iterdir() if e.is_dir()}
        return sorted(found | set(self._aliases()))

    def versions(self, name: str) -> list[str]:
        """The versions of ``name`` (``latest`` when a default file exists), sorted."""
        name = self._aliases().get(name, name)
        found = set()
        if self._file(self.directory, name) is not None:
            found.add(_DEFAULT_VERSION)
        folder = self.directory.joinpath(name)
        if folder.is_dir():
            found |= {stem for stem, _ in _stems(folder)}
        return sorted(found)

    def resolve(self, ref: str) -> dict[str, Any]:
        """The component document for ``ref`` (a deep copy: callers may patch it)."""
        parsed = parse_hub_ref(ref)
        name = self._aliases().get(parsed.name, parsed.name)
        version = parsed.version or _DEFAULT_VERSION
        key = (name, version)
        if key not in self._cache:
            self._cache[key] = self._load(name, version, ref)
        return copy.deepcopy(self._cache[key])

    def _aliases(self) -> dict[str, str]:
        source = self._file(self.directory, _ALIASES)
        if source is None:
            return {}
        aliases = yaml.safe_load(source.read_text(encoding="utf-8")) or {}
        return {str(k): str(v) for k, v in aliases.items()}

    @staticmethod
    def _file(folder: Traversable, stem: str) -> Traversable | None:
        for suffix in _SUFFIXES:
            candidate = folder.joinpath(stem + suffix)
            if candidate.is_file():
                return candidate
        return None

    def _load(self, name: str, version: str, ref: str) -> dict[str, Any]:
        folder = self.directory.joinpath(name)
        source = None
        if version == _DEFAULT_VERSION:
            source = self._file(self.directory, name)
        if source is None and folder.is_dir():
            source = self._file(folder, version)
        if source is None:
            written = ref.strip() in (name, f"{name}:{version}")
            where = "" if written else f" (in `{ref}`)"
            if name not in self.names():
                raise SpecError.at(
                    "hubRef",
                    f"unknown hub component `{name}`{where}",
                    hint=_hint(name, self.names(), "components"),
                )
            raise SpecError.at(
                "hubRef",
                f"hub component `{name}` has no version `{version}`{where}",
                hint=_hint(version, self.versions(name), "versions"),
            )
        document = yaml.safe_load(source.read_text(encoding="utf-8"))
        if not isinstance(document, dict):
            raise SpecError.at("hubRef", f"hub component `{ref}` is not a polyaxonfile mapping")
        return document


class ChainHub:
    """Tries each hub in turn; the first that knows the reference wins."""

    def __init__(self, *hubs: ComponentHub) -> None:
        if not hubs:
            raise ValueError("a ChainHub needs at least one hub")
        self.hubs = hubs

    def resolve(self, ref: str) -> Mapping[str, Any]:
        errors: list[SpecError] = []
        for hub in self.hubs:
            try:
                return hub.resolve(ref)
            except SpecError as exc:
                errors.append(exc)
        hints = dict.fromkeys(p.hint for e in errors for p in e.problems if p.hint)
        first = errors[0].problems[0]
        raise SpecError.at(first.location, first.message, hint="; ".join(hints) or None)


def builtin_hub() -> LocalHub:
    """The components shipped with Axonal (tensorboard, jupyterlab, notifiers, kaniko...)."""
    return LocalHub(files("axonal_spec.hub").joinpath("components"))
