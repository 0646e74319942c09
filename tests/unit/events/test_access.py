"""Every service's NATS permissions (``axonal_events.access``) cover what its code does on the
bus: what its application subscribes to (built, not started) and what its source publishes,
calls and listens to (read from its syntax tree)."""

from __future__ import annotations

import ast
import importlib
import inspect
from collections.abc import Iterator
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any

import pytest

from axonal_bus.service import CONTEXT_KEY, ServiceContext, ServiceSettings
from axonal_events import CATALOG, Rpc, Subjects
from axonal_events.access import ACCESS, DLQ_RELAY_DURABLE, permissions
from axonal_events.commands import COMMANDS

ROOT = Path(__file__).resolve().parents[3]
SUBJECTS = Subjects()
NS = SUBJECTS.namespace
SERVICES = {ep.name: ep.module for ep in entry_points(group="axonal.services")}
RPC_GROUPS = {
    name: group
    for name, group in vars(importlib.import_module("axonal_events.rpcs")).items()
    if inspect.isclass(group) and any(isinstance(v, Rpc) for v in vars(group).values())
}
MODEL_TYPES: dict[str, set[str]] = {}
for _entry in [*CATALOG, *COMMANDS]:
    MODEL_TYPES.setdefault(_entry.model.__name__, set()).add(_entry.event_type)


def matches(pattern: str, subject: str) -> bool:
    """NATS subject matching: ``*`` is one token, a final ``>`` one or more."""
    want, got = pattern.split("."), subject.split(".")
    for i, token in enumerate(want):
        if token == ">":
            return len(got) > i
        if i >= len(got) or (token != "*" and token != got[i]):
            return False
    return len(want) == len(got)


def covered(subject: str, allowed: list[str]) -> bool:
    return any(matches(pattern, subject) for pattern in allowed)


def perms(service: str) -> tuple[list[str], list[str]]:
    doc = permissions(SUBJECTS, service, ACCESS[service])
    return doc["publish"]["allow"], doc["subscribe"]["allow"]


def test_every_service_has_its_access() -> None:
    assert set(ACCESS) == set(SERVICES)


def test_matching_follows_nats() -> None:
    assert matches("a.*.c", "a.b.c")
    assert not matches("a.*", "a.b.c")
    assert matches("a.>", "a.b.c")
    assert not matches("a.>", "a")


# -- what a built application subscribes to -------------------------------------------------


def _context(service: str) -> ServiceContext[Any]:
    module = SERVICES[service]
    settings_module = importlib.import_module(f"{module}.settings")
    settings_type = next(
        value
        for value in vars(settings_module).values()
        if inspect.isclass(value)
        and issubclass(value, ServiceSettings)
        and value.__module__ == settings_module.__name__
    )
    app = importlib.import_module(f"{module}.app").build_app(settings_type())
    context: ServiceContext[Any] = app.context.get(CONTEXT_KEY)
    return context


def _durables(service: str) -> set[tuple[str, str]]:
    return {(SUBJECTS.stream_name(d.stream), d.name) for d in ACCESS[service].durables}


def _consumers(ctx: ServiceContext[Any]) -> Iterator[tuple[str, str]]:
    for sub in ctx.broker.subscribers:
        if getattr(sub, "stream", None) is not None:
            yield sub.stream.name, sub.config.durable_name
    for batch in ctx._batch_consumers:
        yield SUBJECTS.stream_name(batch.spec.stream), batch.spec.durable


@pytest.mark.parametrize("service", sorted(set(SERVICES) - {"api"}))
def test_the_permissions_cover_what_the_application_subscribes_to(service: str) -> None:
    ctx = _context(service)
    publish, subscribe = perms(service)
    durables = _durables(service)
    for stream, durable in _consumers(ctx):
        if durable == DLQ_RELAY_DURABLE:
            continue
        assert (stream, durable) in durables or (stream, "*") in durables, (stream, durable)
        assert covered(f"$JS.API.CONSUMER.MSG.NEXT.{stream}.{durable}", publish)
    for sub in ctx.broker.subscribers:
        if getattr(sub, "stream", None) is None:
            assert covered(sub.subject.template, subscribe), sub.subject


# -- what the source publishes, calls and listens to ----------------------------------------


def _literal(node: ast.expr) -> str | None:
    """A string literal, or an f-string's text before its first placeholder."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr) and node.values:
        first = node.values[0]
        if isinstance(first, ast.Constant) and isinstance(first.value, str):
            return first.value + "x"
    return None


def _builder_subject(call: ast.Call, service: str) -> str | None:
    """The subject a ``subjects.<builder>(...)`` call names (placeholders as ``x``)."""
    assert isinstance(call.func, ast.Attribute)
    args = [_literal(a) for a in call.args]
    own = [
        service if isinstance(a, ast.Attribute) and a.attr == "name" else lit
        for a, lit in zip(call.args, args, strict=True)
    ]
    match call.func.attr, own:
        case "event", [str(event_type)]:
            return SUBJECTS.event(event_type)
        case "events", []:
            return SUBJECTS.events()
        case "events", [str(domain)]:
            return SUBJECTS.events(domain)
        case "command", [str(target), str(verb), *_]:
            return SUBJECTS.command(target, verb)
        case "command", [str(target), None, *_]:
            return SUBJECTS.command(target, "x")
        case "ingest", [str(kind), *_]:
            return f"{NS}.ingest.{kind}"
        case "external", _:
            return SUBJECTS.external("x", "x")
        case "applied", [_]:
            return SUBJECTS.applied("x")
        case "agent_queue", [_]:  # the queue an agent serves unless told otherwise
            return SUBJECTS.agent_queue("default")
    return None


def _source(service: str) -> Iterator[ast.AST]:
    for path in sorted((ROOT / "services" / service / "src").rglob("*.py")):
        yield from ast.walk(ast.parse(path.read_text()))


def _calls_and_models(service: str) -> tuple[set[str], set[str], set[str]]:
    """RPC subjects of other services named, catalog models built, builder subjects named."""
    rpcs, models, subjects = set(), set(), set()
    for node in _source(service):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            rpc = getattr(RPC_GROUPS.get(node.value.id), node.attr, None)
            if isinstance(rpc, Rpc) and rpc.service != service:
                rpcs.add(rpc.subject(SUBJECTS))
        if isinstance(node, ast.Call):
            func = node.func
            name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
            if name in MODEL_TYPES:
                models.add(name)
            if isinstance(func, ast.Attribute) and (subject := _builder_subject(node, service)):
                subjects.add(subject)
    return rpcs, models, subjects


def _filters(service: str) -> list[str]:
    """The filter subjects of the service's own consumers (they need no permission)."""
    if service == "api":
        return []
    ctx = _context(service)
    found = [s.subject.template for s in ctx.broker.subscribers if getattr(s, "stream", None)]
    found += [f for s in ctx.broker.subscribers for f in (s.config.filter_subjects or [])]
    found += [f for b in ctx._batch_consumers for f in b.spec.filter_subjects]
    return [f for f in found if f]


#: Models a service builds from what it consumed, never to send: a restarted agent rebuilds the
#: ``ExecuteRun`` of an attempt it adopts.
REBUILT = {("agent", "ExecuteRun")}


@pytest.mark.parametrize("service", sorted(SERVICES))
def test_the_permissions_cover_what_the_source_does(service: str) -> None:
    publish, subscribe = perms(service)
    rpcs, models, subjects = _calls_and_models(service)
    assert sorted(s for s in rpcs if not covered(s, publish)) == [], "RPCs it may not call"
    for model in sorted(models - {m for s, m in REBUILT if s == service}):
        types = MODEL_TYPES[model]
        named = [SUBJECTS.event(t) for t in types if t in {e.event_type for e in CATALOG}]
        named += [
            SUBJECTS.agent_queue("x") if t.startswith("agent.") else SUBJECTS.command(*t.split("."))
            for t in types
            if t not in {e.event_type for e in CATALOG}
        ]
        assert any(covered(s, publish) for s in named), f"{service} builds {model}: {named}"
    filters = _filters(service)
    unexplained = [
        s
        for s in sorted(subjects)
        if not covered(s, publish + subscribe)
        and not any(matches(f, s) for f in filters)
        and s not in filters
    ]
    assert unexplained == [], f"{service} names subjects it may not use"
