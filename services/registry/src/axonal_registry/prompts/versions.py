"""What creating a version, moving labels and deleting versions do, in one transaction each;
each returns the events to enqueue with the change."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from axonal_bus.errors import Invalid, NotFound
from axonal_db import Connection
from axonal_events.base import EventData
from axonal_events.catalog import PromptLabelsChanged, PromptVersionCreated
from axonal_events.ids import prompt_version_id
from axonal_events.prompts import (
    LATEST,
    CreatePrompt,
    DeletedPrompt,
    DeletePrompt,
    LabelMove,
    PromptVersion,
    SetPromptLabels,
)
from axonal_registry.domain.composition import embeds, references
from axonal_registry.domain.labels import after_delete, moves_to
from axonal_registry.domain.variables import placeholders, variables
from axonal_registry.prompts import store
from axonal_registry.prompts.composition import resolve

__all__ = ["create", "delete", "set_labels"]


def _content(request: CreatePrompt) -> Any:
    if isinstance(request.prompt, str):
        return request.prompt
    return [message.model_dump(exclude_none=True) for message in request.prompt]


def _moved(project_id: str, name: str, moves: list[LabelMove]) -> list[EventData]:
    return [PromptLabelsChanged(project_id=project_id, name=name, moves=moves)] if moves else []


async def create(conn: Connection, request: CreatePrompt) -> tuple[PromptVersion, list[EventData]]:
    """The next version of the prompt, ``latest`` and the given labels moved onto it."""
    project_id, name = request.project_id, request.name
    await store.lock_name(conn, project_id, name)
    last = await store.latest(conn, project_id, name)
    if last is not None and last.type != request.type:
        raise Invalid(f"type: {name} is a {last.type} prompt; create a {request.type} one "
                      "under another name")  # fmt: skip
    content = _content(request)
    clash = sorted(set(variables(content)) & set(placeholders(content)))
    if clash:
        raise Invalid(f"prompt: variables and placeholders share names: {', '.join(clash)}")
    number = last.version + 1 if last else 1
    tags = list(
        dict.fromkeys(request.tags if request.tags is not None else last.tags if last else [])
    )
    now = datetime.now(UTC)
    created = PromptVersion(
        id=prompt_version_id(project_id, name, number),
        project_id=project_id,
        name=name,
        version=number,
        type=request.type,
        prompt=content,
        config=request.config,
        labels=sorted({*request.labels, LATEST}),
        tags=tags,
        commit_message=request.commit_message,
        created_by=request.created_by,
        created_at=now,
        updated_at=now,
    )
    composed = embeds(content)
    if composed:
        await resolve(conn, created)  # refuses a missing prompt or a cycle before storing
    await store.insert_version(conn, created, composed)
    if last is not None and tags != last.tags:
        await store.set_tags(conn, project_id, name, tags)
    moves = moves_to(await store.label_map(conn, project_id, name), number, created.labels)
    await store.apply_moves(conn, project_id, name, moves)
    event = PromptVersionCreated(
        project_id=project_id,
        prompt_id=created.id,
        name=name,
        version=number,
        type=request.type,
        labels=created.labels,
        commit_message=request.commit_message,
    )
    return created, [event, *_moved(project_id, name, moves)]


async def set_labels(
    conn: Connection, request: SetPromptLabels
) -> tuple[PromptVersion, list[EventData]]:
    """Add the labels to the version, taking each from the version that had it."""
    project_id, name = request.project_id, request.name
    await store.lock_name(conn, project_id, name)
    if await store.find(conn, project_id, name, version=request.version, label=None) is None:
        raise NotFound(f"version: prompt {name!r} has no version {request.version}")
    current = await store.label_map(conn, project_id, name)
    moves = moves_to(current, request.version, request.new_labels)
    await store.apply_moves(conn, project_id, name, moves)
    found = await store.find(conn, project_id, name, version=request.version, label=None)
    assert found is not None  # locked above
    return found.prompt, _moved(project_id, name, moves)


async def _blocking(
    conn: Connection, request: DeletePrompt, current: dict[str, int], doomed: set[int]
) -> list[str]:
    """The other prompts that embed a version or a label the delete takes away."""
    lost = {label for label, v in current.items() if v in doomed and label != LATEST}
    found = []
    for parent in await store.embedding(conn, request.project_id):
        for ref in references(parent.prompt):
            if parent.name == request.name or ref.name != request.name:
                continue
            if ref.version in doomed or ref.label in lost:
                found.append(f"{parent.name} v{parent.version} embeds {ref}")
    return found


async def delete(conn: Connection, request: DeletePrompt) -> tuple[DeletedPrompt, list[EventData]]:
    """Delete every version, or the one with the version or label; ``latest`` moves to the
    newest version left. Refused while another prompt embeds what would go."""
    project_id, name = request.project_id, request.name
    await store.lock_name(conn, project_id, name)
    known = {p.version for p in await store.versions(conn, project_id, name)}
    current = await store.label_map(conn, project_id, name)
    if request.version is not None:
        doomed = {request.version} & known
    elif request.label is not None:
        doomed = {current[request.label]} if request.label in current else set()
    else:
        doomed = known
    if not doomed:
        which = "versions"
        if request.version is not None:
            which = f"version {request.version}"
        elif request.label is not None:
            which = f"label {request.label!r}"
        raise NotFound(f"prompt {name!r} has no {which}")
    blocking = await _blocking(conn, request, current, doomed)
    if blocking:
        raise Invalid(f"prompt {name!r} is embedded by other prompts: {'; '.join(blocking)}; "
                      "delete or change them first")  # fmt: skip
    moves = after_delete(current, doomed, known - doomed)
    await store.apply_moves(conn, project_id, name, [m for m in moves if m.to_version])
    await store.delete_versions(conn, project_id, name, sorted(doomed))
    return DeletedPrompt(name=name, versions=sorted(doomed)), _moved(project_id, name, moves)
