"""Pools bound to a schema, JSON values and transactions on a real PostgreSQL."""

import asyncpg
import pytest

from axonal_db import connect, create_pool, transaction


async def test_each_pool_uses_its_schema_as_search_path(pg_pool: asyncpg.Pool, database_url: str):
    await pg_pool.execute("CREATE SCHEMA IF NOT EXISTS alpha; CREATE SCHEMA IF NOT EXISTS beta")
    alpha = await create_pool(database_url, schema="alpha", max_size=2)
    beta = await create_pool(database_url, schema="beta", max_size=2)
    try:
        for pool, value in ((alpha, "a"), (beta, "b")):
            await pool.execute("CREATE TABLE items (value text)")
            await pool.execute("INSERT INTO items VALUES ($1)", value)
        assert await alpha.fetchval("SELECT current_schema()") == "alpha"
        assert await beta.fetchval("SHOW search_path") == '"beta"'
        assert await alpha.fetchval("SELECT string_agg(value, ',') FROM items") == "a"
        assert await beta.fetchval("SELECT string_agg(value, ',') FROM items") == "b"
        assert await pg_pool.fetchval("SELECT to_regclass('public.items')") is None
        # every connection of the pool, not just the first one
        async with alpha.acquire() as one, alpha.acquire() as two:
            assert {await one.fetchval("SELECT current_schema()")} == {"alpha"}
            assert {await two.fetchval("SELECT current_schema()")} == {"alpha"}
    finally:
        await alpha.close()
        await beta.close()


async def test_single_connection_is_configured_like_the_pool(database_url: str):
    conn = await connect(database_url, schema="gamma")
    try:
        await conn.execute("CREATE SCHEMA gamma")
        assert await conn.fetchval("SELECT current_schema()") == "gamma"
        assert await conn.fetchval("SELECT $1::jsonb", {"a": [1]}) == {"a": [1]}
    finally:
        await conn.close()


async def test_invalid_schema_names_are_rejected(database_url: str):
    with pytest.raises(ValueError, match="invalid schema name"):
        await create_pool(database_url, schema='x"; DROP TABLE y; --')


async def test_jsonb_and_json_round_trip_python_values(pg_pool: asyncpg.Pool):
    await pg_pool.execute("CREATE TABLE docs (id int PRIMARY KEY, body jsonb, raw json)")
    value = {"name": "données ✓", "tags": ["a", "b"], "n": 1.5, "ok": True, "none": None}
    await pg_pool.execute("INSERT INTO docs VALUES (1, $1, $2)", value, [1, {"x": 2}])

    row = await pg_pool.fetchrow("SELECT body, raw FROM docs WHERE id = 1")
    assert row["body"] == value
    assert row["raw"] == [1, {"x": 2}]
    # the server stores structured JSON, not a JSON-encoded string
    assert await pg_pool.fetchval("SELECT body->>'name' FROM docs") == "données ✓"
    assert await pg_pool.fetchval("SELECT jsonb_typeof(body) FROM docs") == "object"
    assert await pg_pool.fetchval("SELECT body @> $1 FROM docs", {"tags": ["b"]}) is True
    # a str is a JSON string value, not JSON text
    assert await pg_pool.fetchval("SELECT jsonb_typeof($1::jsonb)", '{"a": 1}') == "string"


async def test_transaction_commits_on_success(pg_pool: asyncpg.Pool):
    await pg_pool.execute("CREATE TABLE commits (v int)")
    async with transaction(pg_pool) as conn:
        assert conn.is_in_transaction()
        await conn.execute("INSERT INTO commits VALUES (1), (2)")
    assert await pg_pool.fetchval("SELECT count(*) FROM commits") == 2


async def test_transaction_rolls_back_on_error(pg_pool: asyncpg.Pool):
    await pg_pool.execute("CREATE TABLE rollbacks (v int)")

    async def insert_then_fail() -> None:
        async with transaction(pg_pool) as conn:
            await conn.execute("INSERT INTO rollbacks VALUES (1)")
            raise RuntimeError("boom")

    with pytest.raises(RuntimeError, match="boom"):
        await insert_then_fail()
    assert await pg_pool.fetchval("SELECT count(*) FROM rollbacks") == 0
    # the connection went back to the pool in a usable state
    async with transaction(pg_pool) as conn:
        await conn.execute("INSERT INTO rollbacks VALUES (2)")
    assert await pg_pool.fetchval("SELECT sum(v) FROM rollbacks") == 2


async def test_transaction_on_a_connection_nests_as_a_savepoint(pg_pool: asyncpg.Pool):
    await pg_pool.execute("CREATE TABLE nested (v int PRIMARY KEY)")

    async def insert_twice(conn: asyncpg.Connection) -> None:
        async with transaction(conn) as same:
            assert same is conn
            await conn.execute("INSERT INTO nested VALUES (2)")
            await conn.execute("INSERT INTO nested VALUES (1)")

    async with transaction(pg_pool) as conn:
        await conn.execute("INSERT INTO nested VALUES (1)")
        with pytest.raises(asyncpg.UniqueViolationError):
            await insert_twice(conn)
        await conn.execute("INSERT INTO nested VALUES (3)")
    rows = await pg_pool.fetch("SELECT v FROM nested ORDER BY v")
    assert [r["v"] for r in rows] == [1, 3]


async def test_readonly_and_isolation_are_applied(pg_pool: asyncpg.Pool):
    async with transaction(pg_pool, isolation="serializable", readonly=True) as conn:
        assert await conn.fetchval("SHOW transaction_isolation") == "serializable"
        with pytest.raises(asyncpg.ReadOnlySQLTransactionError):
            await conn.execute("CREATE TABLE forbidden (v int)")
