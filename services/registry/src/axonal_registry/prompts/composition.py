"""Resolve the prompts a prompt embeds, recursively, reading them from the store."""

from __future__ import annotations

from typing import Any

from axonal_bus.errors import Invalid
from axonal_db import Connection
from axonal_events.prompts import PromptVersion
from axonal_registry.domain.composition import (
    CompositionError,
    Node,
    check_next,
    references,
    substitute,
)
from axonal_registry.prompts import store

__all__ = ["resolve"]


async def resolve(conn: Connection, root: PromptVersion) -> PromptVersion:
    """``root`` with each embedded prompt's text in place of its tag and the graph of what it
    embeds; :class:`Invalid` naming the field for a missing or chat prompt, or a cycle."""
    dependencies: dict[str, list[dict[str, Any]]] = {}

    async def walk(node: PromptVersion, chain: tuple[Node, ...]) -> Any:
        here = (*chain, Node(node.name, node.version))
        content = node.prompt
        for ref in references(content):
            found = await store.find(
                conn, node.project_id, ref.name, version=ref.version, label=ref.label
            )
            where = f"prompt: {node.name} v{node.version} embeds {ref}"
            if found is None:
                raise Invalid(f"{where}, which does not exist")
            child = found.prompt
            if child.type != "text":
                raise Invalid(f"{where}, a chat prompt; only text prompts can be embedded")
            check_next(here, Node(child.name, child.version))
            dependencies.setdefault(node.id, []).append(
                {"id": child.id, "name": child.name, "version": child.version}
            )
            text = await walk(child, here) if found.embeds else child.prompt
            content = substitute(content, ref, text)
        return content

    try:
        content = await walk(root, ())
    except CompositionError as exc:
        raise Invalid(f"prompt: {exc}") from None
    graph = (
        {
            "root": {"id": root.id, "name": root.name, "version": root.version},
            "dependencies": dependencies,
        }
        if dependencies
        else None
    )
    return root.model_copy(update={"prompt": content, "resolution_graph": graph})
