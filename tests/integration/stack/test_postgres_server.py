"""The PostgreSQL launcher: start, restart, recovery after a kill, side-by-side servers."""

import os
import signal
import subprocess
import time
from pathlib import Path

import psutil
import pytest

from axonal_stack.postgres_server import SYSTEM_USER, PostgresServer, postgres_bin


def psql(url: str, sql: str) -> str:
    """Run ``sql`` with the wheel's psql and return the unaligned, tuples-only output."""
    result = subprocess.run(
        [str(postgres_bin("psql")), "-X", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-c", sql, url],
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout.strip()


def _tree(pid: int) -> list[psutil.Process]:
    parent = psutil.Process(pid)
    return [parent, *parent.children(recursive=True)]


def _gone(processes: list[psutil.Process], timeout: float = 10.0) -> bool:
    _, alive = psutil.wait_procs(processes, timeout=timeout)
    return not alive


@pytest.fixture
def server(tmp_path: Path):
    pg = PostgresServer(tmp_path / "pg", durable=False)
    yield pg
    pg.stop()


def test_starts_queries_and_stops_without_leftovers(tmp_path: Path):
    pg = PostgresServer(tmp_path / "pg")
    assert not pg.is_ready()
    started = time.monotonic()
    pg.start()
    try:
        elapsed = time.monotonic() - started
        assert pg.is_ready()
        assert psql(pg.url, "SELECT 1") == "1"
        assert psql(pg.url, "SHOW fsync") == "on"  # durable by default
        assert psql(pg.url, "SHOW max_connections") == "300"
        assert psql(pg.url, "SHOW server_encoding") == "UTF8"
        assert psql(pg.url, "SELECT upper('é')") == "É"
        assert pg.url == f"postgresql://postgres@127.0.0.1:{pg.port}/postgres"
        assert pg.url_for("my db") == f"postgresql://postgres@127.0.0.1:{pg.port}/my%20db"
        assert pg.pid is not None
        tree = _tree(pg.pid)
        assert len(tree) > 1  # postmaster plus its helpers
        if os.geteuid() == 0:
            assert _owners(tree) == {SYSTEM_USER}
        print(f"postgres (initdb + start) ready in {elapsed:.2f}s")
    finally:
        stopping = time.monotonic()
        pg.stop()
    assert time.monotonic() - stopping < 5  # fast shutdown, no wait for the kill timeout
    assert _gone(tree)
    assert pg.process is not None
    assert pg.process.returncode == 0  # a clean fast shutdown, not a SIGKILL
    assert not pg.is_ready()
    assert "database system is shut down" in pg.log_path.read_text()


def test_non_durable_mode_turns_off_fsync(server: PostgresServer):
    server.start()
    assert psql(server.url, "SHOW fsync") == "off"
    assert psql(server.url, "SHOW synchronous_commit") == "off"


def test_restart_on_the_same_data_dir_keeps_the_cluster(tmp_path: Path):
    first = PostgresServer(tmp_path / "pg", durable=False)
    first.start()
    try:
        system_id = psql(first.url, "SELECT system_identifier FROM pg_control_system()")
        psql(first.url, "CREATE TABLE kept (v text); INSERT INTO kept VALUES ('still here')")
    finally:
        first.stop()

    again = PostgresServer(tmp_path / "pg", durable=False)
    started = time.monotonic()
    again.start()
    try:
        assert time.monotonic() - started < 10
        # same cluster (initdb skipped), same data
        assert psql(again.url, "SELECT system_identifier FROM pg_control_system()") == system_id
        assert psql(again.url, "SELECT v FROM kept") == "still here"
    finally:
        again.stop()


def test_stale_postmaster_pid_after_a_kill_does_not_block_a_restart(tmp_path: Path):
    killed = PostgresServer(tmp_path / "pg")
    killed.start()
    try:
        psql(killed.url, "CREATE TABLE survived (v int); INSERT INTO survived VALUES (7)")
        assert killed.pid is not None
        tree = _tree(killed.pid)
        os.kill(killed.pid, signal.SIGKILL)
        assert _gone(tree)  # helpers notice the dead postmaster and exit
    finally:
        killed.stop()
    assert (tmp_path / "pg" / "pgdata" / "postmaster.pid").exists()

    recovered = PostgresServer(tmp_path / "pg", port=killed.port)
    recovered.start()
    try:
        assert psql(recovered.url, "SELECT v FROM survived") == "7"
    finally:
        recovered.stop()
    assert "automatic recovery" in recovered.log_path.read_text()


def test_second_server_beside_the_first_gets_another_port(tmp_path: Path):
    first = PostgresServer(tmp_path / "one", durable=False)
    first.start()
    try:
        second = PostgresServer(tmp_path / "two", durable=False, port=first.port)
        assert second.port != first.port
        second.start()
        try:
            psql(first.url, "CREATE TABLE only_here (v int)")
            assert psql(first.url, "SELECT to_regclass('only_here')") == "only_here"
            assert psql(second.url, "SELECT to_regclass('only_here') IS NULL") == "t"
        finally:
            second.stop()
        assert psql(first.url, "SELECT 1") == "1"
    finally:
        first.stop()


def test_long_data_dir_moves_the_socket_to_a_short_folder(tmp_path: Path):
    deep = tmp_path / ("d" * 60) / ("e" * 60)
    pg = PostgresServer(deep, durable=False)
    assert len(str(pg.socket_dir)) < 60
    assert pg.socket_dir != deep / "run"
    pg.start()
    try:
        socket_url = f"postgresql://postgres@/postgres?host={pg.socket_dir}&port={pg.port}"
        assert psql(socket_url, "SELECT 1") == "1"
    finally:
        pg.stop()


def _owners(tree: list[psutil.Process]) -> set[str]:
    """Users of the processes still alive (postgres helpers may exit while we look)."""
    owners = set()
    for process in tree:
        try:
            owners.add(process.username())
        except psutil.NoSuchProcess:
            continue
    return owners
