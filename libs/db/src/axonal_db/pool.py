"""asyncpg pools bound to one service schema, with JSON columns as Python values.

A pooled connection goes back to the pool without asyncpg's reset query (``RESET ALL``,
``UNLISTEN *`` and the like: one more round trip per acquire). Services change no session
state on pooled connections: settings are fixed when the connection opens, ``set_config``
is local to a transaction, and a listener is removed before its connection is released.
An open transaction is still rolled back on release.
"""

from __future__ import annotations

import json
import re
from typing import Any, TypeAlias

import asyncpg
import msgspec
from asyncpg.pool import PoolConnectionProxy  # type: ignore[import-untyped,unused-ignore]

__all__ = ["Connection", "configure_connection", "connect", "create_pool", "quote_schema"]

#: A plain connection or one acquired from a pool (asyncpg wraps those in a proxy).
Connection: TypeAlias = "asyncpg.Connection | PoolConnectionProxy"

_SCHEMA = re.compile(r"[a-z_][a-z0-9_]{0,62}")


def quote_schema(schema: str) -> str:
    """``schema`` as a quoted SQL identifier; only lower-case ``[a-z_][a-z0-9_]*`` names pass."""
    if not _SCHEMA.fullmatch(schema):
        raise ValueError(f"invalid schema name {schema!r}: use lower-case letters, digits and _")
    return f'"{schema}"'


_JSONB_VERSION = b"\x01"  # the first byte of jsonb's binary format


def _encode_json(value: Any) -> bytes:
    return msgspec.json.encode(value)


def _decode_json(data: bytes) -> Any:
    try:
        return msgspec.json.decode(data)
    except msgspec.DecodeError:  # a number beyond a float's range, which jsonb may hold
        return json.loads(data)


def _encode_jsonb(value: Any) -> bytes:
    return _JSONB_VERSION + msgspec.json.encode(value)


def _decode_jsonb(data: bytes) -> Any:
    return _decode_json(data[1:])


async def configure_connection(conn: Connection) -> None:
    """Encode and decode ``json``/``jsonb`` as Python values (dicts and lists in and out), in
    PostgreSQL's binary format with ``msgspec`` (several times faster than the ``json``
    module; a NaN is stored as ``null``).

    A ``str`` argument is stored as a JSON string, so pass values, not JSON text.
    """
    for type_name, encoder, decoder in (
        ("json", _encode_json, _decode_json),
        ("jsonb", _encode_jsonb, _decode_jsonb),
    ):
        await conn.set_type_codec(
            type_name, encoder=encoder, decoder=decoder, schema="pg_catalog", format="binary"
        )


class _PooledConnection(asyncpg.Connection):
    """Released without a reset query (see the module's docstring)."""

    def get_reset_query(self) -> str:
        return ""


def _settings(schema: str | None, extra: dict[str, str] | None) -> dict[str, str]:
    settings = dict(extra or {})
    if schema is not None:
        settings["search_path"] = quote_schema(schema)
    return settings


async def create_pool(
    url: str,
    *,
    schema: str | None = None,
    min_size: int = 1,
    max_size: int = 10,
    command_timeout: float | None = None,
    server_settings: dict[str, str] | None = None,
) -> asyncpg.Pool:
    """Open a pool whose connections use ``schema`` as ``search_path`` (when given)."""
    return await asyncpg.create_pool(
        url,
        min_size=min_size,
        max_size=max_size,
        command_timeout=command_timeout,
        server_settings=_settings(schema, server_settings),
        init=configure_connection,
        connection_class=_PooledConnection,
    )


async def connect(url: str, *, schema: str | None = None) -> asyncpg.Connection:
    """One connection configured like the pool's (``search_path`` and JSON codecs)."""
    conn = await asyncpg.connect(url, server_settings=_settings(schema, None))
    try:
        await configure_connection(conn)
    except BaseException:
        await conn.close()
        raise
    return conn
