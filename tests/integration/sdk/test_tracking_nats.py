"""``axonal.tracking`` in a child process publishing to a real JetStream (exit, SIGTERM, outage)."""

import asyncio
import os
import signal
import socket
import subprocess
import sys
import uuid

from axonal_events import StreamKind
from axonal_events.metrics import MetricBatch
from axonal_testing.bus import read_stream, stream_count
from axonal_testing.waiting import wait_for

#: Logs ``loss`` and ``acc`` at steps ``start .. start+count-1``, then exits or sleeps.
CHILD = """
import sys, time
from axonal import tracking
start, count, then = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
for step in range(start, start + count):
    tracking.log_metrics(step=step, loss=1 / (step + 1), acc=step / 1e6)
if then == "sleep":
    print("logged", flush=True)
    time.sleep(60)
"""


def child_env(nats_url, namespace, run_uuid, spool):
    env = {k: v for k, v in os.environ.items() if not k.startswith("AXONAL_")}
    env |= {
        "AXONAL_NATS_URL": nats_url,
        "AXONAL_NAMESPACE": namespace,
        "AXONAL_RUN_UUID": run_uuid,
        "AXONAL_TRACKING_SPOOL": str(spool),
    }
    return env


async def run_child(env, start, count):
    args = [sys.executable, "-c", CHILD, str(start), str(count), "exit"]
    return await asyncio.to_thread(
        subprocess.run, args, env=env, capture_output=True, text=True, timeout=120
    )


async def stored_points(nats_client, bus_settings, run_uuid, messages):
    """The (name, step) of every point on the INGEST stream, once ``messages`` are there."""
    js = nats_client.jetstream()
    stream = bus_settings.subjects.stream_name(StreamKind.INGEST)
    await wait_for(
        lambda: _at_least(js, stream, messages), timeout=20, message=f"{messages} messages"
    )
    subject = f"{bus_settings.namespace}.ingest.metrics.{run_uuid}"
    found = await read_stream(js, stream, subject)
    points = []
    for _, data, headers in found:
        batch = MetricBatch.model_validate_json(data)
        assert batch.run_uuid == run_uuid
        assert 1 <= len(batch.points) <= 10_000
        assert headers["Nats-Msg-Id"].startswith(f"{run_uuid}:")
        points += [(p.name, p.step) for p in batch.points]
    return points, [h["Nats-Msg-Id"] for _, _, h in found]


async def _at_least(js, stream, messages):
    return await stream_count(js, stream) >= messages


def closed_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


async def test_points_logged_before_exit_are_all_published_in_batches(
    nats_server, bus_settings, nats_client, tmp_path
):
    run_uuid = uuid.uuid4().hex
    env = child_env(nats_server.url, bus_settings.namespace, run_uuid, tmp_path)
    done = await run_child(env, 0, 12_500)  # exits without calling flush
    assert (done.returncode, done.stderr) == (0, "")

    points, msg_ids = await stored_points(nats_client, bus_settings, run_uuid, 3)
    assert len(points) == 25_000
    assert set(points) == {(n, s) for n in ("loss", "acc") for s in range(12_500)}
    assert len(set(msg_ids)) == len(msg_ids)
    assert not (tmp_path / f"{run_uuid}.jsonl").exists()


async def test_points_spooled_while_nats_is_away_are_sent_once_by_the_next_process(
    nats_server, bus_settings, nats_client, tmp_path
):
    run_uuid = uuid.uuid4().hex
    spool = tmp_path / f"{run_uuid}.jsonl"
    away = child_env(
        f"nats://127.0.0.1:{closed_port()}", bus_settings.namespace, run_uuid, tmp_path
    )
    first = await run_child(away, 0, 3_000)
    assert first.returncode == 0, first.stderr
    assert first.stderr.count("the backend is unreachable") == 1
    assert f"spooling metrics to {spool} and retrying" in first.stderr
    assert "6000 metric points are not delivered yet" in first.stderr
    assert spool.exists()

    back = child_env(nats_server.url, bus_settings.namespace, run_uuid, tmp_path)
    second = await run_child(back, 3_000, 1)
    assert (second.returncode, second.stderr) == (0, "")

    points, msg_ids = await stored_points(nats_client, bus_settings, run_uuid, 2)
    assert sorted(points) == sorted((n, s) for n in ("loss", "acc") for s in range(3_001))
    assert len({m.split(":")[1] for m in msg_ids}) == 2  # both processes' batches
    assert not spool.exists()


async def test_sigterm_flushes_then_ends_the_process_as_sigterm_does(
    nats_server, bus_settings, nats_client, tmp_path
):
    run_uuid = uuid.uuid4().hex
    env = child_env(nats_server.url, bus_settings.namespace, run_uuid, tmp_path)
    args = [sys.executable, "-c", CHILD, "0", "100", "sleep"]
    child = subprocess.Popen(  # noqa: ASYNC220 - read and waited for in threads below
        args, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    try:
        assert await asyncio.to_thread(child.stdout.readline) == b"logged\n"
        child.send_signal(signal.SIGTERM)
        assert await asyncio.to_thread(child.wait, 30) == -signal.SIGTERM
    finally:
        child.kill()
        child.communicate()

    points, _ = await stored_points(nats_client, bus_settings, run_uuid, 1)
    assert sorted(points) == sorted((n, s) for n in ("loss", "acc") for s in range(100))


async def test_a_short_job_reaching_nats_by_host_name_publishes_at_exit(
    nats_server, bus_settings, nats_client, tmp_path
):
    run_uuid = uuid.uuid4().hex
    url = nats_server.url.replace("127.0.0.1", "localhost")
    env = child_env(url, bus_settings.namespace, run_uuid, tmp_path)
    done = await run_child(env, 0, 10)
    assert (done.returncode, done.stderr) == (0, "")
    points, _ = await stored_points(nats_client, bus_settings, run_uuid, 1)
    assert sorted(points) == sorted((n, s) for n in ("loss", "acc") for s in range(10))
