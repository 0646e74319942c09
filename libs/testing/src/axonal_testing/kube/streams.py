"""The streaming endpoints of the Kubernetes API double: watches and pod logs."""

from __future__ import annotations

import asyncio
import contextlib
import json
from datetime import UTC, datetime, timedelta
from typing import Any

from aiohttp import web

from axonal_testing.kube.logs import LogBook, instance
from axonal_testing.kube.resources import by_plural
from axonal_testing.kube.status import ApiError, bad_request
from axonal_testing.kube.store import Store
from axonal_testing.kube.watchers import Watcher

__all__ = ["flag", "follow_logs", "stream_watch"]

POD = by_plural("pods")


def flag(request: web.Request, name: str) -> bool:
    return request.query.get(name, "").lower() in ("true", "1")


async def stream_watch(request: web.Request, store: Store, watcher: Watcher) -> web.StreamResponse:
    """Stream watch events, one JSON object a line, until ``timeoutSeconds`` or the double stops.

    https://kubernetes.io/docs/reference/using-api/api-concepts/#efficient-detection-of-changes:
    a watch from a resourceVersion gets every change after it; when "the historical version of
    that resource is not available" the client gets 410 Gone, here as the API server sends it
    to a watch already under way: an ``ERROR`` event whose object is the ``Status``.
    """
    raw = request.query.get("resourceVersion") or "0"
    if not raw.isdigit():
        raise bad_request(f'resourceVersion: Invalid value: "{raw}": must be a number')
    expired: ApiError | None = None
    try:
        store.watch(watcher, None if raw == "0" else int(raw))
    except ApiError as error:
        expired = error
    response = web.StreamResponse(headers={"Content-Type": "application/json"})
    await response.prepare(request)
    timeout = float(request.query["timeoutSeconds"]) if "timeoutSeconds" in request.query else None
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout if timeout is not None else None
    try:
        if expired is not None:
            await response.write(
                json.dumps({"type": "ERROR", "object": expired.status}).encode() + b"\n"
            )
            return response
        while True:
            remaining = None if deadline is None else deadline - loop.time()
            if remaining is not None and remaining <= 0:
                break
            try:
                event = await asyncio.wait_for(watcher.queue.get(), remaining)
            except TimeoutError:
                break
            if event is None:
                break
            await response.write(json.dumps(event).encode() + b"\n")
    except (ConnectionResetError, asyncio.CancelledError):
        pass
    finally:
        store.unwatch(watcher)
    with contextlib.suppress(ConnectionResetError):
        await response.write_eof()
    return response


def _container_error(pod: dict[str, Any], container: str) -> str | None:
    """Why the kubelet has no log for the container, in its words (``kubelet_pods.go``,
    ``validateContainerLogStatus``): the API server answers these with 400 BadRequest."""
    name = pod["metadata"]["name"]
    statuses = pod.get("status", {}).get("containerStatuses") or []
    status = next((s for s in statuses if s["name"] == container), None)
    if status is None:
        return f'container "{container}" in pod "{name}" is not available'
    state = status.get("state") or {}
    if "running" in state or "terminated" in state:
        return None
    reason = (state.get("waiting") or {}).get("reason")
    known = {
        "ErrImagePull": "image can't be pulled",
        "ImagePullBackOff": "trying and failing to pull image",
    }
    which = f'container "{container}" in pod "{name}"'
    if reason:
        return f"{which} is waiting to start: {known.get(reason, reason)}"
    return f"{which} is waiting to start - no logs yet"


async def follow_logs(request: web.Request, store: Store, logs: LogBook) -> web.StreamResponse:
    """``GET .../pods/{name}/log``: ``container``, ``follow``, ``timestamps``, ``tailLines``,
    ``sinceTime``, ``sinceSeconds``
    (https://kubernetes.io/docs/reference/kubernetes-api/workload-resources/pod-v1/#get-read-log-of-the-specified-pod:
    ``follow`` - "Follow the log stream of the pod"; it ends when the container terminates).
    """
    ns, name = request.match_info["namespace"], request.match_info["name"]
    pod = store.require(POD, ns, name)
    names = [c["name"] for c in pod["spec"]["containers"]]
    container = request.query.get("container") or ""
    if not container:
        if len(names) != 1:
            choices = " ".join(names)
            raise bad_request(
                f"a container name must be specified for pod {name}, choose one of: [{choices}]"
            )
        container = names[0]
    elif container not in names:
        raise bad_request(f"container {container} is not valid for pod {name}")
    if not pod["spec"].get("nodeName"):  # no node yet: the API server streams nothing
        return web.Response(text="", content_type="text/plain")
    if (error := _container_error(pod, container)) is not None:
        raise bad_request(error)
    uid, run = pod["metadata"]["uid"], instance(pod, container)
    since = _since(request)
    tail = int(request.query["tailLines"]) if "tailLines" in request.query else None
    stamps = flag(request, "timestamps")
    response = web.StreamResponse(headers={"Content-Type": "text/plain"})
    await response.prepare(request)
    served = logs.lines(uid, container, run)
    lines = [line for line in served if since is None or line.at >= since]
    sent = len(served)
    for line in lines[-tail:] if tail is not None else lines:
        await response.write(line.render(stamps).encode())
    while flag(request, "follow") and not _ended(store, logs, ns, name, uid, container, run):
        waiter = logs.waiter()
        fresh = logs.lines(uid, container, run)[sent:]
        sent += len(fresh)
        for line in fresh:
            await response.write(line.render(stamps).encode())
        if fresh or _ended(store, logs, ns, name, uid, container, run):
            continue
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(waiter.wait(), 1.0)
    for line in logs.lines(uid, container, run)[sent:]:  # what came with the last change
        await response.write(line.render(stamps).encode())
    await response.write_eof()
    return response


def _since(request: web.Request) -> datetime | None:
    if "sinceTime" in request.query:
        return datetime.fromisoformat(request.query["sinceTime"].replace("Z", "+00:00"))
    if "sinceSeconds" in request.query:
        return datetime.now(UTC) - timedelta(seconds=int(request.query["sinceSeconds"]))
    return None


def _ended(
    store: Store, logs: LogBook, ns: str, name: str, uid: str, container: str, run: int
) -> bool:
    """The followed run of the container is over: it terminated, or was restarted."""
    pod = store.get(POD, ns, name)
    if logs.closed or pod is None or pod["metadata"]["uid"] != uid:
        return True
    if instance(pod, container) != run:
        return True
    statuses = pod.get("status", {}).get("containerStatuses") or []
    return any(s["name"] == container and "terminated" in s.get("state", {}) for s in statuses)
