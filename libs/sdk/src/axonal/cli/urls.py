"""Fetching ``urlRef`` components for the CLI: local copies first, then HTTP(S)."""

from __future__ import annotations

import urllib.error
import urllib.request
from collections.abc import Mapping
from pathlib import Path

from axonal_spec import SpecError
from axonal_spec.hub import MappedUrlResolver

__all__ = ["CliUrlResolver"]

_MAX_BYTES = 1 << 20


class CliUrlResolver:
    """Serves URLs mapped to local files (``--url-map PREFIX=PATH``), fetches the others."""

    def __init__(
        self, mapping: Mapping[str, Path | str] | None = None, timeout: float = 10.0
    ) -> None:
        self.local = MappedUrlResolver(mapping or {})
        self.timeout = timeout

    def fetch(self, url: str) -> str:
        if any(
            url == key or (key.endswith("/") and url.startswith(key)) for key in self.local.mapping
        ):
            return self.local.fetch(url)
        if not url.startswith(("https://", "http://")):
            raise SpecError.at("urlRef", f"only http(s) URLs can be fetched, got `{url}`")
        try:
            with urllib.request.urlopen(url, timeout=self.timeout) as response:  # noqa: S310
                body: bytes = response.read(_MAX_BYTES + 1)
        except (urllib.error.URLError, TimeoutError, OSError) as exc:
            raise SpecError.at(
                "urlRef",
                f"cannot fetch `{url}`: {getattr(exc, 'reason', exc)}",
                hint="map it to a local copy with --url-map URL=PATH",
            ) from None
        if len(body) > _MAX_BYTES:
            raise SpecError.at("urlRef", f"`{url}` is larger than 1 MiB")
        return body.decode("utf-8", errors="replace")
