"""A thin layer over kubernetes_asyncio: objects of any kind (core, batch, apps, custom) as
the API serves them (dicts), by their :class:`~axonal_agent.domain.kube.Kind`.

Paths are the API's (``/api/v1/namespaces/{ns}/{plural}`` for the core group,
``/apis/{group}/{version}/namespaces/{ns}/{plural}`` for the others), called through the
client's ``call_api`` as the generated ``CustomObjectsApi`` does, so every kind takes the same
five calls: :meth:`KubeClient.create` (``409 AlreadyExists``: already launched, the object
as it is), :meth:`~KubeClient.get`, :meth:`~KubeClient.list`, :meth:`~KubeClient.watch`
(from a resourceVersion; :class:`Gone` on ``410``, when the version is too old: list again)
and :meth:`~KubeClient.delete` (always ``propagationPolicy: Background``: batch/v1 Jobs
default to orphaning their pods). :meth:`~KubeClient.follow_log` streams a container's log.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, cast

from kubernetes_asyncio.client import ApiClient
from kubernetes_asyncio.client.exceptions import ApiException

from axonal_agent.domain.kube import Kind

__all__ = ["POD", "SECRET", "Gone", "KubeClient", "Listing", "refusal"]

POD = Kind("v1", "Pod", "pods")
SECRET = Kind("v1", "Secret", "secrets")
_JSON = {200: "object", 201: "object", 202: "object"}


class Gone(Exception):
    """410: the resourceVersion a watch started from is no longer kept."""


@dataclass(frozen=True, slots=True)
class Listing:
    """The objects of a list call and the resourceVersion to watch from."""

    items: list[dict[str, Any]]
    version: str


def refusal(error: ApiException) -> str:
    """What the API server said in refusing a call: its ``Status`` message, if any."""
    body: Any = error.body
    if isinstance(body, bytes):
        body = body.decode("utf-8", errors="replace")
    try:
        message = json.loads(body)["message"]
    except (TypeError, ValueError, KeyError):
        message = body or ""
    return f"{error.status} {error.reason}: {message}".strip(": ")


def _path(kind: Kind, namespace: str, name: str | None = None) -> str:
    root = f"/apis/{kind.group}/{kind.version}" if kind.group else f"/api/{kind.version}"
    path = f"{root}/namespaces/{namespace}/{kind.plural}"
    return f"{path}/{name}" if name else path


class KubeClient:
    """The calls the executor makes, over one ``ApiClient`` (one aiohttp session)."""

    def __init__(self, api: ApiClient) -> None:
        self.api = api

    async def _call(
        self,
        method: str,
        path: str,
        query: list[tuple[str, Any]] | None = None,
        body: Any = None,
        *,
        stream: bool = False,
        timeout: float | None = None,
    ) -> Any:
        return await self.api.call_api(
            path,
            method,
            query_params=query or [],
            header_params={"Accept": "application/json", "Content-Type": "application/json"},
            body=body,
            response_types_map=_JSON,
            auth_settings=["BearerToken"],
            _return_http_data_only=True,
            _preload_content=not stream,
            _request_timeout=timeout,
        )

    async def create(
        self, kind: Kind, namespace: str, body: dict[str, Any]
    ) -> tuple[dict[str, Any], bool]:
        """Create ``body``: ``(the object, True)``; ``(the existing one, False)`` when its
        name is taken (a launch made before)."""
        try:
            created = await self._call("POST", _path(kind, namespace), body=body)
        except ApiException as error:
            if error.status != 409:
                raise
            existing = await self.get(kind, namespace, body["metadata"]["name"])
            if existing is None:  # deleted in between: the caller's watch will tell
                raise
            return existing, False
        return cast("dict[str, Any]", created), True

    async def get(self, kind: Kind, namespace: str, name: str) -> dict[str, Any] | None:
        """The object, ``None`` if there is none (or its kind is not served)."""
        try:
            found = await self._call("GET", _path(kind, namespace, name))
        except ApiException as error:
            if error.status == 404:
                return None
            raise
        return cast("dict[str, Any]", found)

    async def list(
        self, kind: Kind, namespace: str, *, labels: str = "", fields: str = ""
    ) -> Listing:
        """The objects matching the label and field selectors."""
        query = [(k, v) for k, v in (("labelSelector", labels), ("fieldSelector", fields)) if v]
        listing = await self._call("GET", _path(kind, namespace), query)
        return Listing(listing.get("items") or [], str(listing["metadata"]["resourceVersion"]))

    async def watch(
        self,
        kind: Kind,
        namespace: str,
        version: str,
        *,
        labels: str = "",
        fields: str = "",
        seconds: int = 300,
    ) -> AsyncIterator[tuple[str, dict[str, Any]]]:
        """``(type, object)`` of each change after ``version`` (``BOOKMARK``s included: their
        object carries the version to resume from), for ``seconds`` at most; :class:`Gone`
        when the server no longer has ``version``."""
        query: list[tuple[str, Any]] = [
            ("watch", "true"),
            ("resourceVersion", version),
            ("allowWatchBookmarks", "true"),
            ("timeoutSeconds", seconds),
        ]
        query += [(k, v) for k, v in (("labelSelector", labels), ("fieldSelector", fields)) if v]
        response = await self._call("GET", _path(kind, namespace), query, stream=True)
        try:
            if response.status == 410:
                raise Gone(await response.text())
            if not 200 <= response.status < 300:
                raise ApiException(status=response.status, reason=await response.text())
            while line := await response.content.readline():
                event = json.loads(line)
                obj = event.get("object") or {}
                if event.get("type") == "ERROR":
                    if obj.get("code") == 410:
                        raise Gone(obj.get("message"))
                    raise ApiException(status=obj.get("code"), reason=obj.get("message"))
                yield str(event["type"]), obj
        finally:
            response.release()

    async def delete(self, kind: Kind, namespace: str, name: str, grace: int | None = None) -> bool:
        """Delete with ``propagationPolicy: Background`` (and ``gracePeriodSeconds`` when
        given); ``False`` if it was gone already."""
        body: dict[str, Any] = {
            "apiVersion": "v1",
            "kind": "DeleteOptions",
            "propagationPolicy": "Background",
        }
        if grace is not None:
            body["gracePeriodSeconds"] = grace
        try:
            await self._call("DELETE", _path(kind, namespace, name), body=body)
        except ApiException as error:
            if error.status == 404:
                return False
            raise
        return True

    async def follow_log(
        self, namespace: str, pod: str, container: str, since: datetime | None = None
    ) -> AsyncIterator[str]:
        """The container's log lines as they come (from ``since``), until it terminates."""
        query: list[tuple[str, Any]] = [("container", container), ("follow", "true")]
        if since is not None:  # RFC 3339 with its fraction: the API parses it to the nanosecond
            query.append(("sinceTime", since.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")))
        path = f"{_path(POD, namespace, pod)}/log"
        response = await self._call("GET", path, query, stream=True)
        try:
            if not 200 <= response.status < 300:
                raise ApiException(status=response.status, reason=await response.text())
            while raw := await response.content.readline():
                yield raw.decode("utf-8", errors="replace").rstrip("\r\n")
        finally:
            response.release()

    async def close(self) -> None:
        await self.api.close()
