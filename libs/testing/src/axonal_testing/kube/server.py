"""The HTTP side of the Kubernetes API double: the real API's paths, verbs and bodies.

Paths are ``/api/v1/namespaces/{namespace}/{plural}[/{name}]`` for the core group and
``/apis/{group}/{version}/namespaces/{namespace}/{plural}[/{name}]`` for the others, plus the
cluster-wide ``/api/v1/{plural}`` and ``/apis/{group}/{version}/{plural}`` lists
(https://kubernetes.io/docs/reference/using-api/api-concepts/#resource-uris). Create answers
201 with the stored object, get 200, list a ``<Kind>List`` whose ``metadata.resourceVersion``
is the store's revision, errors a ``Status``. Updates over HTTP (PUT, PATCH) are answered 405:
tests change objects through the scripting API. A list is always the current state, whole:
``limit`` is ignored, which the API allows ("Servers may choose not to support the limit
argument and will return all of the available results",
https://kubernetes.io/docs/reference/using-api/api-concepts/#retrieving-large-results-sets-in-chunks),
and so is a list's ``resourceVersion`` (the current state is never older than the one asked
for, https://kubernetes.io/docs/reference/using-api/api-concepts/#semantics-for-get-and-list).
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Awaitable, Callable
from typing import Any

from aiohttp import web

from axonal_testing.kube.defaults import PREPARE
from axonal_testing.kube.gc import Deletion, delete
from axonal_testing.kube.logs import LogBook
from axonal_testing.kube.resources import Resource, resource
from axonal_testing.kube.selectors import field_matcher, label_matcher
from axonal_testing.kube.status import ApiError, bad_request, failure, success
from axonal_testing.kube.store import Store
from axonal_testing.kube.streams import flag, follow_logs, stream_watch
from axonal_testing.kube.watchers import Watcher

__all__ = ["build_app"]

JOB_WARNING = (
    '299 - "child pods are preserved by default when jobs are deleted; set '
    "propagationPolicy=Background to remove them or set propagationPolicy=Orphan to "
    'suppress this warning"'
)
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def _status(error: ApiError) -> web.Response:
    return web.json_response(error.status, status=error.code)


def _resource(request: web.Request) -> Resource:
    info = request.match_info
    found = resource(info.get("group", ""), info.get("version", "v1"), info["plural"])
    if found is None:
        raise failure(404, "NotFound", "the server could not find the requested resource")
    return found


def _errors(handler: Handler) -> Handler:
    async def wrapped(request: web.Request) -> web.StreamResponse:
        try:
            return await handler(request)
        except ApiError as error:
            return _status(error)

    return wrapped


class _Api:
    """The request handlers, over the double's store and logs."""

    def __init__(self, store: Store, logs: LogBook, deletions: list[Deletion]) -> None:
        self.store, self.book, self.deletions = store, logs, deletions

    async def create(self, request: web.Request) -> web.StreamResponse:
        res, ns = _resource(request), request.match_info["namespace"]
        try:
            body = await request.json()
        except json.JSONDecodeError as error:
            raise bad_request(
                f"the body of the request was in an unknown format: {error}"
            ) from None
        if body.get("metadata", {}).get("namespace", ns) != ns:
            raise bad_request(
                "the namespace of the provided object does not match the namespace sent on "
                "the request"
            )
        prepare = PREPARE.get(res.plural)
        created = self.store.create(res, ns, body, (lambda o: prepare(res, o)) if prepare else None)
        return web.json_response(created, status=201)

    async def get(self, request: web.Request) -> web.StreamResponse:
        res, info = _resource(request), request.match_info
        return web.json_response(self.store.require(res, info["namespace"], info["name"]))

    async def collection(self, request: web.Request) -> web.StreamResponse:
        """List, or watch with ``watch=true`` / ``watch=1``."""
        res, ns = _resource(request), request.match_info.get("namespace")
        labels = label_matcher(request.query.get("labelSelector"))
        fields = field_matcher(request.query.get("fieldSelector"), res.plural)
        if flag(request, "watch"):
            watcher = Watcher(res, ns, labels, fields, flag(request, "allowWatchBookmarks"))
            return await stream_watch(request, self.store, watcher)
        items = self.store.find(res, ns, lambda o: labels(o) and fields(o))
        if not res.custom:  # built-in lists carry kind and apiVersion once, not per item
            for item in items:
                item.pop("kind"), item.pop("apiVersion")
        listing = {
            "kind": f"{res.kind}List",
            "apiVersion": res.api_version,
            "metadata": {"resourceVersion": str(self.store.revision)},
            "items": items,
        }
        return web.json_response(listing)

    async def delete(self, request: web.Request) -> web.StreamResponse:
        """DELETE with ``propagationPolicy`` (DeleteOptions body or query) and
        ``gracePeriodSeconds``; batch/v1 Jobs warn when no policy is given, as upstream."""
        res, info = _resource(request), request.match_info
        ns, name = info["namespace"], info["name"]
        options: dict[str, Any] = {}
        if request.can_read_body:
            with contextlib.suppress(json.JSONDecodeError):
                options = await request.json() or {}
        requested = options.get("propagationPolicy") or request.query.get("propagationPolicy")
        orphan = options.get("orphanDependents", request.query.get("orphanDependents"))
        if requested is None and orphan is not None:  # the deprecated form of the same choice
            requested = "Orphan" if str(orphan).lower() == "true" else "Background"
        grace = options.get("gracePeriodSeconds", request.query.get("gracePeriodSeconds"))
        policy = requested or res.default_policy
        uid = self.store.require(res, ns, name)["metadata"]["uid"]
        self.deletions.append(Deletion(res.plural, ns, name, requested, policy))
        final = delete(self.store, res, ns, name, policy, None if grace is None else int(grace))
        headers = {"Warning": JOB_WARNING} if res.plural == "jobs" and requested is None else {}
        remaining = self.store.get(res, ns, name)
        if remaining is not None and remaining["metadata"]["uid"] == uid:
            return web.json_response(remaining, headers=headers)
        if res.returns_deleted:
            return web.json_response(final, headers=headers)
        return web.json_response(success(res, name, uid), headers=headers)

    async def not_allowed(self, request: web.Request) -> web.StreamResponse:
        message = "the double serves no updates over HTTP: change objects through its scripting API"
        raise failure(405, "MethodNotAllowed", message)

    async def logs(self, request: web.Request) -> web.StreamResponse:
        return await follow_logs(request, self.store, self.book)

    async def version(self, request: web.Request) -> web.StreamResponse:
        return web.json_response({"major": "1", "minor": "33", "gitVersion": "v1.33.0"})


def build_app(store: Store, logs: LogBook, deletions: list[Deletion]) -> web.Application:
    """The aiohttp application serving ``store`` and ``logs``; it records DELETEs in
    ``deletions``."""
    api = _Api(store, logs, deletions)
    routes = []
    for prefix in ("/api/{version:v1}", "/apis/{group}/{version}"):
        item = prefix + "/namespaces/{namespace}/{plural}/{name}"
        routes += [
            web.get(prefix + "/{plural}", _errors(api.collection)),
            web.get(prefix + "/namespaces/{namespace}/{plural}", _errors(api.collection)),
            web.post(prefix + "/namespaces/{namespace}/{plural}", _errors(api.create)),
            web.get(item, _errors(api.get)),
            web.delete(item, _errors(api.delete)),
            web.put(item, _errors(api.not_allowed)),
            web.patch(item, _errors(api.not_allowed)),
            web.get(item + "/status", _errors(api.get)),  # the status subresource: the object
            web.put(item + "/status", _errors(api.not_allowed)),
            web.patch(item + "/status", _errors(api.not_allowed)),
        ]
    routes += [
        web.get("/api/v1/namespaces/{namespace}/pods/{name}/log", _errors(api.logs)),
        web.get("/version", api.version),
    ]
    app = web.Application()
    app.add_routes(routes)
    return app
