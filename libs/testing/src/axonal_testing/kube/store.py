"""The double's storage: objects, one global resourceVersion counter, and the change history.

Like etcd behind the API server, every write takes the next value of a single counter as the
object's ``metadata.resourceVersion`` and is kept in a history that watches replay from
(https://kubernetes.io/docs/reference/using-api/api-concepts/#resource-versions: "resource
versions ... are opaque strings"; here they are etcd-like increasing integers).
"""

from __future__ import annotations

import copy
import random
import re
import uuid
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from axonal_testing.kube.resources import Resource
from axonal_testing.kube.status import ApiError, already_exists, expired, invalid, not_found
from axonal_testing.kube.watchers import Change, Watcher

__all__ = ["Change", "Store", "Watcher", "now"]

Listener = Callable[[Change], None]
_SUBDOMAIN = re.compile(r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$")
_SUFFIX = "bcdfghjklmnpqrstvwxz2456789"  # what generateName suffixes are made of upstream


def now() -> str:
    """An RFC 3339 UTC timestamp, as the API server writes them."""
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def suffix(length: int = 5) -> str:
    """A random suffix like the API server's ``generateName`` adds."""
    return "".join(random.choice(_SUFFIX) for _ in range(length))


@dataclass(frozen=True, slots=True)
class _Key:
    res: Resource
    namespace: str
    name: str


class Store:
    """Objects by type, namespace and name; every write is a :class:`Change`."""

    def __init__(self) -> None:
        self.revision = 1  # like etcd's first revision: a list never says "0" (= any version)
        self.compacted = 0
        self._objects: dict[_Key, dict[str, Any]] = {}
        self._history: deque[Change] = deque()
        self._watchers: set[Watcher] = set()
        self._listeners: list[Listener] = []
        self._pending: deque[Change] = deque()
        self._dispatching = False
        self.controller_errors: list[ApiError] = []

    # reads

    def get(self, res: Resource, namespace: str, name: str) -> dict[str, Any] | None:
        """A copy of the object, or ``None``."""
        obj = self._objects.get(_Key(res, namespace, name))
        return copy.deepcopy(obj) if obj is not None else None

    def require(self, res: Resource, namespace: str, name: str) -> dict[str, Any]:
        """A copy of the object, or a 404 NotFound."""
        obj = self.get(res, namespace, name)
        if obj is None:
            raise not_found(res, name)
        return obj

    def find(
        self,
        res: Resource,
        namespace: str | None,
        match: Callable[[dict[str, Any]], bool] = lambda _: True,
    ) -> list[dict[str, Any]]:
        """Copies of the objects of a type (in a namespace) that ``match``, by name."""
        found = [
            copy.deepcopy(obj)
            for key, obj in self._objects.items()
            if key.res is res and namespace in (None, key.namespace) and match(obj)
        ]
        return sorted(
            found, key=lambda o: (o["metadata"].get("namespace", ""), o["metadata"]["name"])
        )

    def dependents(self, uid: str) -> list[tuple[Resource, dict[str, Any]]]:
        """Objects with an ownerReference to ``uid``
        (https://kubernetes.io/docs/concepts/overview/working-with-objects/owners-dependents/)."""
        return [
            (key.res, copy.deepcopy(obj))
            for key, obj in self._objects.items()
            if any(ref.get("uid") == uid for ref in obj["metadata"].get("ownerReferences") or [])
        ]

    # writes

    def create(
        self,
        res: Resource,
        namespace: str,
        body: dict[str, Any],
        prepare: Callable[[dict[str, Any]], None] | None = None,
    ) -> dict[str, Any]:
        """Store a new object: 201 semantics, 409 when the name is taken, 422 without a name;
        ``prepare`` defaults and validates it once it has its uid."""
        obj = copy.deepcopy(body)
        meta = obj.setdefault("metadata", {})
        if not meta.get("name") and meta.get("generateName"):
            # https://kubernetes.io/docs/reference/kubernetes-api/common-definitions/object-meta-v1/
            # generateName: "the server will ... append a unique suffix".
            meta["name"] = meta["generateName"] + suffix()
        name = meta.get("name") or ""
        _validate_name(res, name)
        key = _Key(res, namespace, name)
        if key in self._objects:
            raise already_exists(res, name)
        obj["kind"], obj["apiVersion"] = res.kind, res.api_version
        meta.update(namespace=namespace, uid=str(uuid.uuid4()), creationTimestamp=now())
        if res.group:  # spec changes of workloads and custom resources bump it
            meta["generation"] = 1
        if prepare is not None:
            prepare(obj)
        self._commit(key, obj, "ADDED", None)
        return copy.deepcopy(obj)

    def update(
        self, res: Resource, namespace: str, name: str, mutate: Callable[[dict[str, Any]], None]
    ) -> dict[str, Any]:
        """Apply ``mutate`` to a copy and store it; an object marked for deletion whose last
        finalizer is removed is deleted
        (https://kubernetes.io/docs/concepts/overview/working-with-objects/finalizers/)."""
        key = _Key(res, namespace, name)
        previous = self._objects.get(key)
        if previous is None:
            raise not_found(res, name)
        obj = copy.deepcopy(previous)
        mutate(obj)
        meta = obj["metadata"]
        gone = not meta.get("finalizers") and not meta.get("deletionGracePeriodSeconds")
        if meta.get("deletionTimestamp") and gone:
            return self.remove(res, namespace, name, obj)
        self._commit(key, obj, "MODIFIED", previous)
        return copy.deepcopy(obj)

    def mark_deleted(
        self, res: Resource, namespace: str, name: str, grace: int | None
    ) -> dict[str, Any]:
        """Set ``deletionTimestamp`` (and the grace period): the object stays until its
        finalizers are gone and, for a pod, until the kubelet has stopped it."""

        def mark(obj: dict[str, Any]) -> None:
            obj["metadata"].setdefault("deletionTimestamp", now())
            if grace is not None:
                obj["metadata"]["deletionGracePeriodSeconds"] = grace

        return self.update(res, namespace, name, mark)

    def remove(
        self, res: Resource, namespace: str, name: str, final: dict[str, Any] | None = None
    ) -> dict[str, Any]:
        """Delete the object now; watchers get it as of the deletion's resourceVersion."""
        key = _Key(res, namespace, name)
        previous = self._objects[key]
        obj = copy.deepcopy(final if final is not None else previous)
        self._commit(key, obj, "DELETED", previous)
        return copy.deepcopy(obj)

    def _commit(
        self, key: _Key, obj: dict[str, Any], kind: str, previous: dict[str, Any] | None
    ) -> None:
        self.revision += 1
        obj["metadata"]["resourceVersion"] = str(self.revision)
        if kind == "DELETED":
            del self._objects[key]
        else:
            self._objects[key] = obj
        change = Change(self.revision, kind, key.res, copy.deepcopy(obj), previous)
        self._history.append(change)
        for watcher in list(self._watchers):
            watcher.offer(change)
        self._pending.append(change)
        self._dispatch()

    # watches and controllers

    def subscribe(self, listener: Listener) -> None:
        """Call ``listener`` with every change, in order, after the watchers got it."""
        self._listeners.append(listener)

    def _dispatch(self) -> None:
        """Run the listeners on each change in order; a write they make is queued behind."""
        if self._dispatching:
            return
        self._dispatching = True
        try:
            while self._pending:
                change = self._pending.popleft()
                for listener in self._listeners:
                    try:
                        listener(change)
                    except ApiError as error:  # a controller's failed write fails no request
                        self.controller_errors.append(error)
        finally:
            self._dispatching = False

    def watch(self, watcher: Watcher, since: int | None) -> None:
        """Register ``watcher``; replay the changes after ``since``, or the current state.

        https://kubernetes.io/docs/reference/using-api/api-concepts/#semantics-for-watch:
        with a resourceVersion other than 0 the watch starts "at an exact resource version.
        The watch events are for all changes after the provided resource version"; unset or
        0, it "begins with synthetic 'Added' events of all resources instances that exist".
        A version older than the retained history is a 410 Gone (``expired``).
        """
        if since is None:
            for obj in self.find(watcher.res, watcher.namespace):
                watcher.offer(Change(self.revision, "ADDED", watcher.res, obj, None))
        else:
            if since < self.compacted:
                raise expired(since, self.compacted)
            for change in self._history:
                if change.rv > since:
                    watcher.offer(change)
        self._watchers.add(watcher)

    @property
    def watching(self) -> int:
        """How many watches are open."""
        return len(self._watchers)

    def unwatch(self, watcher: Watcher) -> None:
        """Stop sending changes to ``watcher``."""
        self._watchers.discard(watcher)

    def compact(self, revision: int | None = None) -> None:
        """Forget the history up to ``revision`` (default: now), as etcd compaction does;
        a watch from an older resourceVersion then gets 410 Gone."""
        self.compacted = self.revision if revision is None else revision
        while self._history and self._history[0].rv <= self.compacted:
            self._history.popleft()

    def bookmark(self) -> None:
        """Send a BOOKMARK with the current resourceVersion to watches that allow them."""
        for watcher in list(self._watchers):
            watcher.bookmark(self.revision)

    def close(self) -> None:
        """End every watch."""
        for watcher in list(self._watchers):
            watcher.end()
        self._watchers.clear()


def _validate_name(res: Resource, name: str) -> None:
    # https://kubernetes.io/docs/concepts/overview/working-with-objects/names/#dns-subdomain-names
    if not name:
        message = "Required value: name or generateName is required"
        raise invalid(res, name, "metadata.name", "FieldValueRequired", message)
    if len(name) > 253 or not _SUBDOMAIN.match(name):
        message = (
            f'Invalid value: "{name}": a lowercase RFC 1123 subdomain must consist of lower case '
            "alphanumeric characters, '-' or '.', and must start and end with an alphanumeric "
            "character"
        )
        raise invalid(res, name, "metadata.name", "FieldValueInvalid", message)
    # A Job's name is also the value of its pods' job-name label: at most 63 characters
    # (https://kubernetes.io/docs/concepts/workloads/controllers/job/#writing-a-job-spec).
    if res.plural == "jobs" and len(name) > 63:
        message = f'Invalid value: "{name}": must be no more than 63 characters'
        raise invalid(res, name, "metadata.name", "FieldValueInvalid", message)
