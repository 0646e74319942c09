"""Request/reply: upsert, list and delete LLM connections (secrets encrypted, masked)."""

from __future__ import annotations

import json
import uuid

from axonal_bus.errors import NotFound
from axonal_db import transaction
from axonal_evaluation.connections import store
from axonal_evaluation.context import Context
from axonal_evaluation.domain.secrets import encrypt, mask
from axonal_events.evaluators import (
    DeletedLlmConnection,
    DeleteLlmConnection,
    ListLlmConnections,
    LlmConnection,
    LlmConnectionPage,
    UpsertLlmConnection,
)
from axonal_events.rpcs import Evaluation
from axonal_events.trace_reads import PageMeta

__all__ = ["delete_llm_connection", "list_llm_connections", "register", "upsert_llm_connection"]


async def upsert_llm_connection(ctx: Context, request: UpsertLlmConnection) -> LlmConnection:
    key = ctx.settings.secret_key
    headers = request.extra_headers
    fields = {
        **request.model_dump(exclude={"secret_key", "extra_headers"}),
        "id": str(uuid.uuid4()),
        "secret_encrypted": encrypt(key, request.secret_key),
        "display_secret_key": mask(request.secret_key),
        "headers_encrypted": encrypt(key, json.dumps(headers)) if headers else None,
        "extra_header_keys": sorted(headers),
    }
    async with transaction(ctx.pool) as conn:
        return await store.upsert(conn, fields)


async def list_llm_connections(ctx: Context, request: ListLlmConnections) -> LlmConnectionPage:
    async with ctx.pool.acquire() as conn:
        data = await store.page(conn, request.project_id, request.page, request.limit)
        total = await store.count(conn, request.project_id)
    return LlmConnectionPage(data=data, meta=PageMeta.of(request.page, request.limit, total))


async def delete_llm_connection(ctx: Context, request: DeleteLlmConnection) -> DeletedLlmConnection:
    async with transaction(ctx.pool) as conn:
        if not await store.delete(conn, request.project_id, request.id):
            raise NotFound(f"LLM connection not found: '{request.id}'")
    return DeletedLlmConnection(message="LLM connection deleted")


def register(ctx: Context) -> None:
    ctx.serve(Evaluation.upsert_llm_connection, upsert_llm_connection)
    ctx.serve(Evaluation.list_llm_connections, list_llm_connections)
    ctx.serve(Evaluation.delete_llm_connection, delete_llm_connection)
