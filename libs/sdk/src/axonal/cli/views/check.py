"""Rich rendering of a checked polyaxonfile: what it is, what it takes, how it fans out."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from rich.console import Group
from rich.markup import escape
from rich.panel import Panel
from rich.table import Table
from rich.tree import Tree

if TYPE_CHECKING:
    from rich.console import RenderableType

    from axonal_spec.checking import CheckResult
    from axonal_spec.outcome import CompiledOperation

__all__ = ["render_summary"]


def _short(value: Any, limit: int = 60) -> str:
    """Shortened and escaped: values (and ``List[str]``) must not be read as Rich markup."""
    text = value if isinstance(value, str) else json.dumps(value, default=str)
    return escape(text if len(text) <= limit else text[: limit - 1] + "…")


def _io_table(compiled: CompiledOperation) -> Table | None:
    rows = [("in", io) for io in compiled.inputs] + [("out", io) for io in compiled.outputs]
    if not rows and not compiled.context_params and not compiled.deferred:
        return None
    table = Table(title="inputs, outputs and params", title_justify="left", expand=False)
    for column in ("", "name", "type", "value", "from"):
        table.add_column(column)
    for direction, io in rows:
        value = "" if io.value is None else _short(io.value)
        table.add_row(direction, _short(io.name), _short(io.type or "any"), value, io.source)
    declared = {io.name for _, io in rows}
    late = {d.name: d for d in compiled.deferred}
    for name, value in compiled.context_params.items():
        if name in late:
            source = late[name].ref or late[name].source
            table.add_row("ctx", _short(name), "", _short(late[name].value or ""), source)
        else:
            table.add_row("ctx", _short(name), "", "" if value is None else _short(value), "param")
    for name, deferred in late.items():
        if name not in declared and name not in compiled.context_params:
            table.add_row("ctx", _short(name), "", _short(deferred.value or ""), deferred.source)
    return table


def _dag_tree(compiled: CompiledOperation) -> Tree | None:
    if not compiled.layers:
        return None
    tree = Tree(f"[bold]dag[/] ({sum(map(len, compiled.layers))} operations)")
    for level, layer in enumerate(compiled.layers):
        branch = tree.add(f"level {level + 1}")
        for name in layer:
            ups = (compiled.upstream or {}).get(name) or []
            branch.add(f"{name}" + (f" [dim]← {', '.join(ups)}[/]" if ups else ""))
    return tree


def _facts(compiled: CompiledOperation) -> Table:
    facts = Table.grid(padding=(0, 2))
    facts.add_column(style="bold")
    facts.add_column()
    facts.add_row("name", compiled.name or "-")
    facts.add_row("runtime", compiled.run_kind)
    if compiled.matrix is not None:
        plan = compiled.matrix
        size = f"{plan.size} runs" if plan.size is not None else "adaptive search"
        concurrency = f", concurrency {plan.concurrency}" if plan.concurrency else ""
        facts.add_row("matrix", f"{plan.kind}: {size}{concurrency}")
    if compiled.schedule:
        facts.add_row("schedule", _short(compiled.schedule))
    if compiled.hooks:
        facts.add_row("hooks", ", ".join(h.get("hubRef", "?") for h in compiled.hooks))
    if compiled.conditions:
        facts.add_row("conditions", escape(compiled.conditions))
    facts.add_row("cache key", compiled.content_hash[:16])
    return facts


def render_summary(result: CheckResult) -> RenderableType:
    """A panel saying the file is valid, with the facts a user checks before running it."""
    sources = escape(", ".join(str(p) for p in result.sources))
    compiled = result.compiled
    if compiled is None:
        return Panel(f"[green]✓[/] {sources}: valid preset", border_style="green")
    parts: list[RenderableType] = [_facts(compiled)]
    parts.extend(x for x in (_io_table(compiled), _dag_tree(compiled)) if x is not None)
    kind = result.document.kind or "polyaxonfile"
    return Panel(Group(*parts), title=f"[green]✓[/] valid {kind}: {sources}", border_style="green")
