"""The embedded stack heals itself: killed servers and a hung service come back, and nothing
that was acknowledged is lost or stored twice.

A stack of this module's own (its servers are killed). While a server is killed, the SDK logs
metrics of a tracked run through the api (it buffers and retries, so every point it logs must
end up stored once) and OTLP spans are posted to the api (a span is acknowledged by a 200;
one refused meanwhile may be missing, never stored twice). ``axonal status`` answers within
3 s whatever is down and says what.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import shutil
import signal
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import asyncpg
import nats
import pytest

from axonal_events import StreamKind, Subjects
from axonal_stack.ports import free_port
from axonal_testing.bus import drained
from axonal_testing.stack import RunningStack, axonal_cli, start_stack, stop_stack
from axonal_testing.waiting import wait_for_sync

from .healing import SdkRun, SpanSender

pytestmark = pytest.mark.slow  # real processes killed and restarted

PROJECT = "acme/heal"
HANG_TIMEOUT = 8.0
STATUS_BUDGET = 3.0
INGEST = Subjects().stream_name(StreamKind.INGEST)
DURABLES = ("tracking-metrics", "tracking-traces")


@pytest.fixture(scope="module")
def own_stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningStack]:
    """A stack of this module's own, in a home outside pytest's folder (see test_recovery)."""
    home = Path(tempfile.mkdtemp(prefix="axonal-healing-"))
    env = {
        "AXONAL_POSTGRES_DURABLE": "false",
        "AXONAL_NATS_PORT": str(free_port()),
        "AXONAL_POSTGRES_PORT": str(free_port()),
        "AXONAL_API_PORT": str(free_port()),
        "AXONAL_STACK_HANG_TIMEOUT": str(HANG_TIMEOUT),
        "AXONAL_STACK_PING_INTERVAL": "1",
    }
    try:
        yield start_stack(home, env)
    finally:
        stop_stack(home, env)
        if (home / "logs").is_dir():
            kept = tmp_path_factory.getbasetemp() / "healing-stack-logs"  # for post-mortems
            shutil.copytree(home / "logs", kept, dirs_exist_ok=True)
        shutil.rmtree(home, ignore_errors=True)


@pytest.fixture(scope="module")
def api_key(own_stack: RunningStack) -> dict[str, Any]:

    owner, name = PROJECT.split("/")
    with own_stack.http(timeout=30) as api:
        reply = api.post("/api/v1/projects", json={"owner": owner, "name": name})
        assert reply.status_code in (201, 409), reply.text
        key = api.post(f"/api/v1/projects/{owner}/{name}/api-keys", json={})
        assert key.status_code in (200, 201), key.text
        found: dict[str, Any] = key.json()
    return found


@pytest.fixture
def spans(own_stack: RunningStack, api_key: dict[str, Any]) -> Iterator[SpanSender]:
    auth = (api_key["public_key"], api_key["secret_key"])
    sender = SpanSender(own_stack.status["api_url"], auth)
    sender.start()
    try:
        yield sender
    finally:
        sender.finish()


@pytest.fixture
def sdk_run(own_stack: RunningStack, tmp_path: Path) -> Iterator[SdkRun]:
    run = SdkRun(tmp_path, own_stack.api_url, PROJECT, own_stack.admin_token)
    try:
        yield run
    finally:
        run.kill()


def query(stack: RunningStack, sql: str, *args: object) -> list[asyncpg.Record]:
    async def fetch() -> list[asyncpg.Record]:
        conn = await asyncpg.connect(stack.database_url, timeout=5)
        try:
            return list(await conn.fetch(sql, *args))
        finally:
            await conn.close()

    return asyncio.run(fetch())


def stored_points(stack: RunningStack, run_uuid: str) -> int:
    try:
        rows = query(
            stack, "SELECT count(*) FROM tracking.metric_points WHERE run_uuid = $1", run_uuid
        )
    except (OSError, asyncpg.PostgresError):  # PostgreSQL being restarted
        return -1
    return int(rows[0][0])


def stored_spans(stack: RunningStack, project_id: str, spans: SpanSender) -> list[str]:
    """The ids of the spans ``spans`` sent that are stored (a row each)."""
    rows = query(
        stack,
        "SELECT id FROM tracking.observations WHERE project_id = $1 AND starts_with(id, $2)",
        project_id,
        spans.prefix,
    )
    return [row["id"] for row in rows]


def durables(stack: RunningStack) -> dict[str, Any]:
    async def info() -> dict[str, Any]:
        nc = await nats.connect(stack.nats_url, max_reconnect_attempts=1, connect_timeout=2)
        try:
            js = nc.jetstream()
            found = {d: await js.consumer_info(INGEST, d) for d in DURABLES}
            found["drained"] = all([await drained(js, INGEST, d) for d in DURABLES])
            return found
        finally:
            await nc.close()

    return asyncio.run(info())


def wait_healthy(stack: RunningStack, timeout: float = 60) -> None:
    wait_for_sync(
        lambda: stack.refresh()["healthy"], timeout=timeout, interval=0.5, message="healthy"
    )


def timed_status(stack: RunningStack) -> tuple[float, dict[str, Any], int]:
    """``axonal status --json``: how long it took, its document and its exit code."""
    started = time.monotonic()
    result = axonal_cli("status", "--json", home=stack.home, env=stack.env, timeout=30)
    elapsed = time.monotonic() - started
    return elapsed, json.loads(result.stdout), result.returncode


def assert_all_acknowledged_stored_once(
    stack: RunningStack, spans: SpanSender, sdk_run: SdkRun, project_id: str
) -> None:
    logged = sdk_run.finish()
    assert logged > 0
    assert sdk_run.spool_is_empty(), "points left in the SDK's spool"
    spans.finish()
    assert spans.acked, "no span was acknowledged"

    def all_stored() -> bool:
        points = stored_points(stack, sdk_run.uuid)
        return points == logged and spans.acked <= set(stored_spans(stack, project_id, spans))

    wait_for_sync(all_stored, timeout=60, interval=0.5, message="every acknowledged item stored")
    wait_for_sync(lambda: durables(stack)["drained"], timeout=30, message="nothing left to do")
    stored = stored_spans(stack, project_id, spans)
    assert len(stored) == len(set(stored))  # once each (the primary key says so too)
    assert set(stored) <= spans.sent  # nothing else; refused ones may or may not be there
    points = query(
        stack,
        "SELECT count(*), count(DISTINCT step), min(step), max(step)"
        " FROM tracking.metric_points WHERE run_uuid = $1 AND name = 'loss'",
        sdk_run.uuid,
    )
    assert tuple(points[0]) == (logged, logged, 0, logged - 1)


def flowing(stack: RunningStack, spans: SpanSender, sdk_run: SdkRun) -> None:
    """Wait until spans are acknowledged and the run's points stored, from now on."""
    acked, points = len(spans.acked), stored_points(stack, sdk_run.uuid)
    wait_for_sync(
        lambda: (
            len(spans.acked) >= acked + 30 and stored_points(stack, sdk_run.uuid) >= points + 200
        ),
        timeout=45,
        interval=0.2,
        message="spans and points flowing",
    )


def server_restarted(stack: RunningStack, role: str, before: int) -> dict[str, Any] | None:
    server: dict[str, Any] = stack.state()["servers"][role]
    return server if server["restarts"] > before and server["up"] else None


@pytest.mark.parametrize("role", ["nats", "postgres"])
def test_a_killed_server_is_restarted_and_nothing_acknowledged_is_lost(
    own_stack: RunningStack, api_key: dict[str, Any], spans: SpanSender, sdk_run: SdkRun, role: str
):
    sdk_run.start()
    flowing(own_stack, spans, sdk_run)
    state = own_stack.state()
    before, port = state["servers"][role]["restarts"], state[f"{role}_port"]
    killed_at = time.monotonic()
    os.kill(state[role]["pid"], signal.SIGKILL)

    server = wait_for_sync(
        lambda: server_restarted(own_stack, role, before),
        timeout=30,
        interval=0.05,
        message=f"{role} restarted",
    )
    restart_seconds = time.monotonic() - killed_at
    after = own_stack.state()
    assert after[f"{role}_port"] == port
    assert after[role]["pid"] != state[role]["pid"]
    assert server["last_exit_code"] == -signal.SIGKILL
    assert (
        f"{'nats-server' if role == 'nats' else 'postgres'} restarted"
        in (own_stack.home / "logs" / "stack.log").read_text()
    )
    flowing(own_stack, spans, sdk_run)  # the services reconnected on their own
    wait_healthy(own_stack)
    healed_seconds = time.monotonic() - killed_at
    assert_all_acknowledged_stored_once(own_stack, spans, sdk_run, api_key["project"]["id"])
    print(
        f"\n{role}: restarted {restart_seconds:.1f}s after the kill, all healthy after "
        f"{healed_seconds:.1f}s; spans acknowledged {len(spans.acked)}, refused "
        f"{len(spans.refused)}; points {sdk_run.logged}"
    )


def test_a_hung_service_is_killed_and_restarted_and_nothing_acknowledged_is_lost(
    own_stack: RunningStack, api_key: dict[str, Any], spans: SpanSender, sdk_run: SdkRun
):
    sdk_run.start()
    flowing(own_stack, spans, sdk_run)
    # Nothing in flight when it stops: what a hung consumer holds is redelivered only after
    # its ack wait (30 s, 60 s), which would only make this test long.
    spans.pause()
    sdk_run.pause()
    wait_for_sync(lambda: durables(own_stack)["drained"], timeout=30, message="drained")
    before = own_stack.state()["services"]["tracking"]
    stopped_at = time.monotonic()
    os.kill(before["process"]["pid"], signal.SIGSTOP)
    try:
        # its pending pull requests expire (5 s): what comes now waits in the stream
        wait_for_sync(
            lambda: all(durables(own_stack)[d].num_waiting == 0 for d in DURABLES),
            timeout=15,
            interval=0.2,
            message="no pull request of the stopped service",
        )
        elapsed, doc, code = timed_status(own_stack)
        spans.resume()
        sdk_run.resume()
        assert elapsed < STATUS_BUDGET, elapsed
        assert code != 0
        assert doc["healthy"] is False
        assert "tracking" in doc["down"], doc["down"]
        assert "no answer to ping" in doc["down"]["tracking"]

        after = wait_for_sync(
            lambda: (
                (s := own_stack.state()["services"]["tracking"])["hangs"] > before["hangs"] and s
            ),
            timeout=HANG_TIMEOUT + 20,
            interval=0.1,
            message="tracking killed as hung",
        )
    finally:
        with contextlib.suppress(ProcessLookupError):  # dead once killed as hung
            os.kill(before["process"]["pid"], signal.SIGCONT)
    killed_seconds = time.monotonic() - stopped_at
    assert after["last_exit_code"] == -signal.SIGKILL
    assert after["last_restart_reason"].startswith("answered no ping for")
    assert after["restarts"] == before["restarts"] + 1
    wait_healthy(own_stack)
    flowing(own_stack, spans, sdk_run)
    assert_all_acknowledged_stored_once(own_stack, spans, sdk_run, api_key["project"]["id"])
    print(
        f"\ntracking stopped: killed and restarted {killed_seconds:.1f}s later "
        f"(status took {elapsed:.1f}s)"
    )


@pytest.mark.parametrize(("role", "says"), [("nats", "NATS"), ("postgres", "PostgreSQL")])
def test_status_says_what_is_down_within_3_seconds(own_stack: RunningStack, role: str, says: str):
    """With the supervisor stopped, the killed server stays down while status is asked."""
    state = own_stack.state()
    before = state["servers"][role]["restarts"]
    supervisor = state["supervisor"]["pid"]
    os.kill(supervisor, signal.SIGSTOP)
    try:
        os.kill(state[role]["pid"], signal.SIGKILL)
        elapsed, doc, code = timed_status(own_stack)
    finally:
        os.kill(supervisor, signal.SIGCONT)
        # once the supervisor goes on, it restarts the server (the next test needs it)
        wait_for_sync(
            lambda: server_restarted(own_stack, role, before), timeout=30, message=f"{role} back"
        )
        wait_healthy(own_stack)
    assert elapsed < STATUS_BUDGET, elapsed
    assert code != 0
    assert doc["running"] is True
    assert doc["healthy"] is False
    assert list(doc["down"]) == [role], doc["down"]
    assert doc["down"][role].startswith(f"{says} unreachable at 127.0.0.1:{state[f'{role}_port']}")
    for key in ("nats_url", "database_url", "api_url", "services"):
        assert doc[key], key
    print(f"\nstatus with {role} down: {elapsed:.2f}s")


def test_status_says_the_supervisor_is_not_running(tmp_path: Path):
    elapsed, doc, code = timed_status(RunningStack(tmp_path, "", "", {}))
    assert elapsed < STATUS_BUDGET, elapsed
    assert code != 0
    assert doc["running"] is False
    assert list(doc["down"]) == ["supervisor"]
