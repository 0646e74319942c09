"""The DAG of a pipeline's operations (spec §4.1), over plain data.

An op's upstream is its ``dependencies`` plus ``X`` for every param ``ref: ops.X`` and every
event ``ref: ops.X``; ``ref: dag`` and ``ref: runs.<uuid>`` create no edge. Unknown upstream
names and cycles are :class:`SpecError` s located at ``run.operations[i]...``. Everything is
iterative and linear in ops + edges (apart from sorting each layer by definition order).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from axonal_spec.errors import Problem, SpecError, join_location

__all__ = ["OpEdges", "downstream", "topological_layers", "topological_order", "upstream"]

_OPERATIONS = "run.operations"


@dataclass(frozen=True, slots=True)
class OpEdges:
    """What an op says about its upstream: names, param ``ref`` values, event ``ref`` values."""

    dependencies: Sequence[str] = ()
    param_refs: Sequence[str] = ()
    event_refs: Sequence[str] = ()


def _op_ref(ref: str) -> str | None:
    return ref[len("ops.") :] if ref.startswith("ops.") else None


def upstream(ops: Mapping[str, OpEdges], *, location: str = _OPERATIONS) -> dict[str, list[str]]:
    """Each op's direct upstream ops (deduplicated, in the order they are named).

    Raises :class:`SpecError` naming every unknown upstream (``ops`` order = definition order,
    which gives the index in ``<location>[i]``).
    """
    problems: list[Problem] = []
    result: dict[str, list[str]] = {}
    for index, (name, edges) in enumerate(ops.items()):
        found: dict[str, None] = {}
        sources = (
            ("dependencies", list(edges.dependencies)),
            ("params", [_op_ref(r) for r in edges.param_refs]),
            ("events", [_op_ref(r) for r in edges.event_refs]),
        )
        for field, names in sources:
            for other in names:
                if other is None:
                    continue
                if other not in ops:
                    where = join_location(location, index, field)
                    message = f"operation {name!r} depends on unknown operation {other!r}"
                    problems.append(Problem(where, message))
                else:
                    found[other] = None
        result[name] = list(found)
    if problems:
        raise SpecError(problems)
    return result


def downstream(ops: Mapping[str, OpEdges], *, location: str = _OPERATIONS) -> dict[str, list[str]]:
    """Each op's direct downstream ops, in definition order."""
    result: dict[str, list[str]] = {name: [] for name in ops}
    for name, ups in upstream(ops, location=location).items():
        for up in ups:
            result[up].append(name)
    return result


def topological_layers(
    ops: Mapping[str, OpEdges], *, location: str = _OPERATIONS
) -> list[list[str]]:
    """Kahn layers: layer 0 has no upstream, layer n only upstream in layers < n.

    Within a layer ops keep their definition order. Raises :class:`SpecError`
    ("Pipeline's graph is not acyclic: a -> b -> a") for every cycle, located at the first
    op of the cycle.
    """
    ups = upstream(ops, location=location)
    order = {name: i for i, name in enumerate(ops)}
    downs: dict[str, list[str]] = {name: [] for name in ops}
    for name, names in ups.items():
        for up in names:
            downs[up].append(name)
    waiting = {name: len(names) for name, names in ups.items()}
    layer = [name for name in ops if waiting[name] == 0]
    layers: list[list[str]] = []
    while layer:
        layers.append(layer)
        ready: list[str] = []
        for name in layer:
            for down in downs[name]:
                waiting[down] -= 1
                if waiting[down] == 0:
                    ready.append(down)
        layer = sorted(ready, key=order.__getitem__)
    placed = sum(len(names) for names in layers)
    if placed != len(ops):
        stuck = [name for name in ops if waiting[name] > 0]
        raise SpecError(_cycle_problems(stuck, ups, order, location))
    return layers


def topological_order(ops: Mapping[str, OpEdges], *, location: str = _OPERATIONS) -> list[str]:
    """All ops, upstream before downstream, layer by layer."""
    return [name for layer in topological_layers(ops, location=location) for name in layer]


def _cycle_problems(
    stuck: Sequence[str],
    ups: Mapping[str, Sequence[str]],
    order: Mapping[str, int],
    location: str,
) -> list[Problem]:
    """One problem per strongly connected group of ``stuck`` ops that holds a cycle."""
    problems: list[Problem] = []
    for group in _strong_components(stuck, ups):
        members = set(group)
        if len(group) == 1 and group[0] not in ups[group[0]]:
            continue  # blocked behind a cycle, not on one
        start = min(group, key=order.__getitem__)
        path = _cycle_path(start, members, ups)
        message = "Pipeline's graph is not acyclic: " + " -> ".join(path)
        others = sorted(members - set(path), key=order.__getitem__)
        if others:
            message += " (also in this cycle: " + ", ".join(others) + ")"
        problems.append(Problem(join_location(location, order[start]), message))
    return problems


def _cycle_path(start: str, members: set[str], ups: Mapping[str, Sequence[str]]) -> list[str]:
    """A shortest cycle through ``start`` inside one strongly connected group, in execution
    order (``a -> b``: ``b`` runs after ``a``), found breadth-first along upstream links."""
    parent: dict[str, str] = {}
    frontier = [start]
    while frontier:
        following: list[str] = []
        for node in frontier:
            for up in ups[node]:
                if up == start:
                    path = [start, node]
                    while path[-1] != start:
                        path.append(parent[path[-1]])
                    return path
                if up in members and up not in parent:
                    parent[up] = node
                    following.append(up)
        frontier = following
    raise AssertionError("a strongly connected group always has a cycle")  # pragma: no cover


def _strong_components(nodes: Sequence[str], ups: Mapping[str, Sequence[str]]) -> list[list[str]]:
    """Tarjan's algorithm, iterative, restricted to ``nodes`` (edges follow upstream links)."""
    inside = set(nodes)
    links = {node: [u for u in ups[node] if u in inside] for node in nodes}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    groups: list[list[str]] = []
    for root in nodes:
        if root in index:
            continue
        work = [(root, 0)]
        while work:
            node, child = work.pop()
            if child == 0:
                index[node] = low[node] = len(index)
                stack.append(node)
                on_stack.add(node)
            if child < len(links[node]):
                work.append((node, child + 1))
                nxt = links[node][child]
                if nxt not in index:
                    work.append((nxt, 0))
                elif nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
                continue
            if low[node] == index[node]:
                group: list[str] = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == node:
                        break
                groups.append(group)
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
    return groups
