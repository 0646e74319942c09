"""Where ``urlRef`` and ``pathRef`` documents come from.

This library does no network I/O: the CLI and the API inject a :class:`UrlResolver` that
downloads (with their HTTP client, timeouts and credentials); tests and the conformance runner
use :class:`MappedUrlResolver`, which serves URLs from local files. :class:`PathResolver` reads
local files (the one I/O this library does), relative to the referencing file's folder.
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping
from pathlib import Path
from typing import Protocol, runtime_checkable

from axonal_spec.errors import SpecError

__all__ = ["MappedUrlResolver", "PathResolver", "UrlResolver"]


@runtime_checkable
class UrlResolver(Protocol):
    """Returns the text of the document at ``url`` or raises :class:`SpecError` at ``urlRef``."""

    def fetch(self, url: str) -> str: ...


class MappedUrlResolver:
    """Serves URLs from local files: exact URLs, or prefixes (keys ending in ``/``) mapped to
    folders, e.g. ``{"https://raw.githubusercontent.com/polyaxon/polyaxon-quick-start/master/":
    Path("corpus/polyaxon-quick-start")}``."""

    def __init__(self, mapping: Mapping[str, Path | str]) -> None:
        self.mapping = {url: Path(path) for url, path in mapping.items()}

    def locate(self, url: str) -> Path:
        """The local file standing for ``url``."""
        if url in self.mapping:
            return self.mapping[url]
        prefixes = sorted((u for u in self.mapping if u.endswith("/")), key=len, reverse=True)
        for prefix in prefixes:
            if url.startswith(prefix):
                return self.mapping[prefix] / url.removeprefix(prefix)
        close = difflib.get_close_matches(url, list(self.mapping), n=1, cutoff=0.8)
        raise SpecError.at(
            "urlRef",
            f"no local copy of `{url}` (this resolver does not use the network)",
            hint=f"did you mean `{close[0]}`?" if close else "add it to the resolver's mapping",
        )

    def fetch(self, url: str) -> str:
        path = self.locate(url)
        try:
            return path.read_text(encoding="utf-8")
        except OSError as exc:
            raise SpecError.at("urlRef", f"cannot read {path} for `{url}`: {exc}") from None


class PathResolver:
    """Resolves ``pathRef`` against the referencing file's folder (``root`` for documents that
    did not come from a file, the current directory unless given)."""

    def __init__(self, root: Path | str | None = None) -> None:
        self.root = Path(root) if root is not None else Path.cwd()

    def resolve(self, path_ref: str, *, referrer: Path | str | None = None) -> Path:
        """The existing file ``path_ref`` names (absolute, or relative to ``referrer``'s folder)."""
        base = Path(referrer).parent if referrer is not None else self.root
        path = (base / path_ref).resolve()
        if path.is_file():
            return path
        siblings = (
            [p.name for p in path.parent.iterdir() if p.suffix in (".yaml", ".yml", ".json")]
            if path.parent.is_dir()
            else []
        )
        close = difflib.get_close_matches(path.name, siblings, n=3, cutoff=0.6)
        raise SpecError.at(
            "pathRef",
            f"file not found: `{path_ref}` (looked for {path})",
            hint=("did you mean " + " or ".join(f"`{c}`" for c in close) + "?") if close else None,
        )

    def read(self, path_ref: str, *, referrer: Path | str | None = None) -> str:
        """The text of the file ``path_ref`` names."""
        path = self.resolve(path_ref, referrer=referrer)
        try:
            return path.read_text(encoding="utf-8")
        except OSError as exc:
            raise SpecError.at("pathRef", f"cannot read {path}: {exc}") from None
