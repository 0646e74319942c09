"""Per-service migrations on a real PostgreSQL: once, in order, under a lock, verified."""

import asyncio
import hashlib
import json
import subprocess
import sys
import uuid
from pathlib import Path

import asyncpg
import pytest

from axonal_db import (
    InvalidMigrationError,
    MigrationChecksumError,
    MigrationMissingError,
    MigrationOrderError,
    MigrationSource,
    create_pool,
    migrate,
)
from axonal_testing.waiting import wait_for


def _schema() -> str:
    return f"svc_{uuid.uuid4().hex[:8]}"


def _source(folder: Path, name: str = "svc", **files: str) -> MigrationSource:
    folder.mkdir(parents=True, exist_ok=True)
    for filename, sql in files.items():
        (folder / f"{filename}.sql").write_text(sql)
    return MigrationSource(name, folder)


BASIC = {
    "0001_create_items": "CREATE TABLE items (id int PRIMARY KEY, label text);",
    "0002_seed": "INSERT INTO items VALUES (1, 'one'), (2, 'two');",
}

# 0002 runs long enough that concurrent runners overlap, and is not idempotent:
# applying it twice leaves two rows (or fails on the table created by 0001).
SLOW = {
    "0001_create_hits": "CREATE TABLE hits (at timestamptz NOT NULL DEFAULT now());",
    "0002_slow_hit": "SELECT pg_sleep(0.3); INSERT INTO hits DEFAULT VALUES;",
    "0003_index": "CREATE INDEX hits_at ON hits (at);",
}


async def _records(pool: asyncpg.Pool, schema: str) -> list[tuple[str, int, str, str]]:
    rows = await pool.fetch(
        f"SELECT source, version, name, checksum FROM {schema}.schema_migrations"
        " ORDER BY source, version"
    )
    return [(r["source"], r["version"], r["name"], r["checksum"]) for r in rows]


async def test_applies_in_order_into_the_schema_and_records_each(
    pg_pool: asyncpg.Pool, tmp_path: Path
):
    schema = _schema()
    source = _source(tmp_path, **BASIC)

    applied = await migrate(pg_pool, schema=schema, sources=[source])

    assert [(m.version, m.name) for m in applied] == [(1, "create_items"), (2, "seed")]
    assert await pg_pool.fetchval(f"SELECT count(*) FROM {schema}.items") == 2
    assert await pg_pool.fetchval("SELECT to_regclass('public.items')") is None
    expected = [
        ("svc", 1, "create_items", hashlib.sha256(BASIC["0001_create_items"].encode()).hexdigest()),
        ("svc", 2, "seed", hashlib.sha256(BASIC["0002_seed"].encode()).hexdigest()),
    ]
    assert await _records(pg_pool, schema) == expected
    applied_at = await pg_pool.fetchval(
        f"SELECT bool_and(applied_at <= now()) FROM {schema}.schema_migrations"
    )
    assert applied_at is True


async def test_second_run_applies_nothing_and_new_files_apply_later(
    pg_pool: asyncpg.Pool, tmp_path: Path
):
    schema = _schema()
    source = _source(tmp_path, **BASIC)
    await migrate(pg_pool, schema=schema, sources=[source])

    assert await migrate(pg_pool, schema=schema, sources=[source]) == []
    assert await pg_pool.fetchval(f"SELECT count(*) FROM {schema}.items") == 2

    _source(tmp_path, **{"0003_add_column": "ALTER TABLE items ADD COLUMN note text;"})
    applied = await migrate(pg_pool, schema=schema, sources=[source])
    assert [m.version for m in applied] == [3]
    assert len(await _records(pg_pool, schema)) == 3


async def test_accepts_a_url_and_ignores_the_pool_search_path(database_url: str, tmp_path: Path):
    schema = _schema()
    source = _source(tmp_path, **BASIC)
    assert len(await migrate(database_url, schema=schema, sources=[source])) == 2

    other = await create_pool(database_url, schema="public", max_size=1)
    try:
        _source(tmp_path, **{"0003_more": "CREATE TABLE more (id int);"})
        await migrate(other, schema=schema, sources=[source])
        assert await other.fetchval(f"SELECT to_regclass('{schema}.more')") is not None
        assert await other.fetchval("SELECT to_regclass('public.more')") is None
    finally:
        await other.close()


async def test_concurrent_runners_apply_each_migration_exactly_once(
    database_url: str, pg_pool: asyncpg.Pool, tmp_path: Path
):
    schema = _schema()
    source = _source(tmp_path, **SLOW)
    pools = [await create_pool(database_url, max_size=1) for _ in range(3)]
    try:
        results = await asyncio.gather(
            *(migrate(pool, schema=schema, sources=[source]) for pool in pools)
        )
    finally:
        await asyncio.gather(*(pool.close() for pool in pools))

    versions = sorted(m.version for result in results for m in result)
    assert versions == [1, 2, 3]
    assert sorted(len(result) for result in results) == [0, 0, 3]
    assert await pg_pool.fetchval(f"SELECT count(*) FROM {schema}.hits") == 1
    assert [r[1] for r in await _records(pg_pool, schema)] == [1, 2, 3]


_RUNNER = """
import asyncio, json, sys
from pathlib import Path
from axonal_db import MigrationSource, migrate

async def main():
    url, schema, folder = sys.argv[1:4]
    applied = await migrate(url, schema=schema, sources=[MigrationSource("svc", Path(folder))])
    print(json.dumps([m.version for m in applied]))

asyncio.run(main())
"""


async def test_concurrent_processes_apply_each_migration_exactly_once(
    database_url: str, pg_pool: asyncpg.Pool, tmp_path: Path
):
    schema = _schema()
    source = _source(tmp_path / "m", **SLOW)
    argv = [sys.executable, "-c", _RUNNER, database_url, schema, str(source.directory)]

    def run_two() -> list[subprocess.CompletedProcess[str]]:
        procs = [
            subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            for _ in range(2)
        ]
        outputs = [proc.communicate(timeout=60) for proc in procs]
        return [
            subprocess.CompletedProcess(argv, proc.returncode, out, err)
            for proc, (out, err) in zip(procs, outputs, strict=True)
        ]

    results = await asyncio.to_thread(run_two)

    for result in results:
        assert result.returncode == 0, result.stderr
    applied = [json.loads(result.stdout) for result in results]
    assert sorted(v for versions in applied for v in versions) == [1, 2, 3]
    assert await pg_pool.fetchval(f"SELECT count(*) FROM {schema}.hits") == 1


async def test_edited_applied_migration_stops_everything(pg_pool: asyncpg.Pool, tmp_path: Path):
    schema = _schema()
    source = _source(tmp_path, **BASIC)
    await migrate(pg_pool, schema=schema, sources=[source])
    before = await _records(pg_pool, schema)
    edited = tmp_path / "0002_seed.sql"
    edited.write_text("INSERT INTO items VALUES (3, 'three');")
    _source(tmp_path, **{"0003_pending": "CREATE TABLE pending (id int);"})

    with pytest.raises(MigrationChecksumError) as info:
        await migrate(pg_pool, schema=schema, sources=[source])

    message = str(info.value)
    assert str(edited) in message
    assert repr(schema) in message
    assert before[1][3] in message
    assert hashlib.sha256(edited.read_bytes()).hexdigest() in message
    assert info.value.recorded == before[1][3]
    # nothing applied: neither the pending file nor anything else
    assert await _records(pg_pool, schema) == before
    assert await pg_pool.fetchval(f"SELECT to_regclass('{schema}.pending')") is None
    assert await pg_pool.fetchval(f"SELECT count(*) FROM {schema}.items") == 2


async def test_missing_applied_file_is_an_error(pg_pool: asyncpg.Pool, tmp_path: Path):
    schema = _schema()
    source = _source(tmp_path, **BASIC)
    await migrate(pg_pool, schema=schema, sources=[source])
    (tmp_path / "0001_create_items.sql").unlink()

    with pytest.raises(MigrationMissingError, match=r"0001_create_items\.sql.*missing"):
        await migrate(pg_pool, schema=schema, sources=[source])


async def test_new_file_below_an_applied_version_is_an_error(pg_pool: asyncpg.Pool, tmp_path: Path):
    schema = _schema()
    source = _source(tmp_path, **{"0002_b": "CREATE TABLE b (id int);"})
    await migrate(pg_pool, schema=schema, sources=[source])
    _source(tmp_path, **{"0001_a": "CREATE TABLE a (id int);"})

    with pytest.raises(MigrationOrderError, match="0002 is already applied"):
        await migrate(pg_pool, schema=schema, sources=[source])
    assert await pg_pool.fetchval(f"SELECT to_regclass('{schema}.a')") is None


async def test_bad_file_name_is_rejected_before_touching_the_database(
    pg_pool: asyncpg.Pool, tmp_path: Path
):
    schema = _schema()
    source = _source(tmp_path, **{"0001_ok": "SELECT 1;", "1_bad": "SELECT 2;"})

    with pytest.raises(InvalidMigrationError, match=r"'1_bad\.sql'"):
        await migrate(pg_pool, schema=schema, sources=[source])
    exists = "SELECT EXISTS (SELECT FROM pg_namespace WHERE nspname = $1)"
    assert await pg_pool.fetchval(exists, schema) is False


async def test_failing_migration_rolls_back_alone(pg_pool: asyncpg.Pool, tmp_path: Path):
    schema = _schema()
    source = _source(
        tmp_path,
        **{
            "0001_ok": "CREATE TABLE ok (id int);",
            "0002_broken": "CREATE TABLE half (id int); SELECT * FROM no_such_table;",
        },
    )
    with pytest.raises(asyncpg.UndefinedTableError):
        await migrate(pg_pool, schema=schema, sources=[source])
    assert [r[1] for r in await _records(pg_pool, schema)] == [1]
    assert await pg_pool.fetchval(f"SELECT to_regclass('{schema}.half')") is None

    (tmp_path / "0002_broken.sql").write_text("CREATE TABLE half (id int);")
    assert [m.version for m in await migrate(pg_pool, schema=schema, sources=[source])] == [2]


async def test_two_sources_share_one_schema(pg_pool: asyncpg.Pool, tmp_path: Path):
    schema = _schema()
    outbox = _source(
        tmp_path / "bus",
        "bus",
        **{"0001_outbox": "CREATE TABLE outbox (id bigserial PRIMARY KEY, payload jsonb);"},
    )
    service = _source(
        tmp_path / "svc",
        **{"0001_users": "CREATE TABLE users (id int);", "0002_more": "SELECT 1;"},
    )

    applied = await migrate(pg_pool, schema=schema, sources=[service, outbox])

    assert [(m.source, m.version) for m in applied] == [("svc", 1), ("svc", 2), ("bus", 1)]
    assert [(r[0], r[1]) for r in await _records(pg_pool, schema)] == [
        ("bus", 1),
        ("svc", 1),
        ("svc", 2),
    ]
    assert await pg_pool.fetchval(f"SELECT to_regclass('{schema}.outbox')") is not None
    assert await migrate(pg_pool, schema=schema, sources=[service, outbox]) == []
    # a run that names only one source leaves the other's records alone
    assert await migrate(pg_pool, schema=schema, sources=[outbox]) == []
    with pytest.raises(InvalidMigrationError, match="unique"):
        await migrate(pg_pool, schema=schema, sources=[outbox, outbox])


async def test_schemas_of_two_services_are_independent(pg_pool: asyncpg.Pool, tmp_path: Path):
    first, second = _schema(), _schema()
    source = _source(tmp_path, **BASIC)
    await migrate(pg_pool, schema=first, sources=[source])
    _source(tmp_path, **{"0003_extra": "CREATE TABLE extra (id int);"})

    applied = await migrate(pg_pool, schema=second, sources=[source])

    assert [m.version for m in applied] == [1, 2, 3]
    await pg_pool.execute(f"INSERT INTO {second}.items VALUES (3, 'three')")
    assert await pg_pool.fetchval(f"SELECT count(*) FROM {first}.items") == 2
    assert await pg_pool.fetchval(f"SELECT count(*) FROM {second}.items") == 3
    assert len(await _records(pg_pool, first)) == 2
    assert len(await _records(pg_pool, second)) == 3
    assert await pg_pool.fetchval(f"SELECT to_regclass('{first}.extra')") is None


async def test_migration_lock_is_per_schema(
    database_url: str, pg_pool: asyncpg.Pool, tmp_path: Path
):
    first, second = _schema(), _schema()
    source = _source(tmp_path, **SLOW)
    blocker = await asyncpg.connect(database_url)
    gate = await asyncpg.connect(database_url)  # the test decides when the slow migration ends
    await gate.execute("SELECT pg_advisory_lock(4242)")
    try:
        # a replica of the first service is migrating (holds its lock) ...
        wait = "SELECT pg_advisory_lock(4242); SELECT pg_advisory_unlock(4242);"
        slow = _source(tmp_path / "slow", **{"0001_wait": wait})
        first_run = asyncio.create_task(migrate(blocker, schema=first, sources=[slow]))
        holder = blocker.get_server_pid()

        async def locked() -> bool:
            return bool(
                await pg_pool.fetchval(
                    "SELECT count(*) FROM pg_locks "
                    "WHERE locktype = 'advisory' AND granted AND pid = $1",
                    holder,
                )
            )

        await wait_for(locked, message="the first replica holds its schema's lock")
        # ... the second service is not held up by it: it is done while the first still runs
        applied = await asyncio.wait_for(
            migrate(pg_pool, schema=second, sources=[source]), timeout=30
        )
        assert len(applied) == 3
        assert not first_run.done()
        # but a second replica of the first service waits for the lock, then has nothing to do
        second_replica = asyncio.create_task(migrate(pg_pool, schema=first, sources=[slow]))
        await gate.execute("SELECT pg_advisory_unlock(4242)")
        waited = await asyncio.wait_for(second_replica, timeout=30)
        assert first_run.done()
        assert waited == []
        assert len(await first_run) == 1
    finally:
        await gate.close()
        await blocker.close()
