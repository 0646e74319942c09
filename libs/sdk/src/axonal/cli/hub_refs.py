"""``hubRef`` components for the CLI: the platform's registry when it is reachable (pushed
components, then built-in ones), the built-ins alone when it is not, saying so."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from axonal.api_client import ApiClient, ApiError, resolve_api_url
from axonal_spec import SpecError
from axonal_spec.hub import builtin_hub, document_of

__all__ = ["PlatformHub"]

_REFUSED = (400, 404)


class PlatformHub:
    """A :class:`~axonal_spec.hub.ComponentHub` asking the api, once per reference."""

    def __init__(self, api_url: str | None, *, timeout: float = 5.0) -> None:
        self.api_url = api_url
        self.timeout = timeout
        self._found: dict[str, Mapping[str, Any] | SpecError] = {}
        self._client: ApiClient | None = None
        self.offline: str | None = None  # why the platform was not asked, once known

    def resolve(self, ref: str) -> Mapping[str, Any]:
        if ref not in self._found:
            self._found[ref] = self._fetch(ref)
        found = self._found[ref]
        if isinstance(found, SpecError):
            raise found
        return dict(found)

    def close(self) -> None:
        if self._client is not None:
            self._client.close()

    def _fetch(self, ref: str) -> Mapping[str, Any] | SpecError:
        if self.offline is None:
            try:
                if self._client is None:
                    self._client = ApiClient(resolve_api_url(self.api_url), timeout=self.timeout)
                body = self._client.request("GET", "/api/v1/hub/resolve", params={"ref": ref})
                return document_of(ref, str(body["content"]))
            except ApiError as exc:
                if exc.status in _REFUSED:
                    return SpecError.at("hubRef", exc.message)
                self.offline = exc.message
        try:
            return builtin_hub().resolve(ref)
        except SpecError as exc:
            first = exc.problems[0]
            return SpecError.at(
                "hubRef",
                f"{first.message}; pushed components are unknown here ({self.offline})",
                hint=first.hint,
            )
