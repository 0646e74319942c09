"""The api over real NATS: commands land on JetStream, reads are RPCs, errors are JSON."""

import asyncio
import json
from datetime import UTC, datetime, timedelta

import httpx
import pytest

from axonal_bus.ping import ping
from axonal_bus.run_tokens import issue_run_token
from axonal_events import RunStatus, StreamKind
from axonal_events.commands import COMMANDS
from axonal_events.logs import LogBatch, LogRecord
from axonal_testing.api_fakes import OPERATOR
from axonal_testing.bus import read_stream, stream_count
from axonal_testing.waiting import wait_for

JOB = """
kind: component
name: hello
inputs:
- {name: who, type: str}
run:
  kind: job
  container: {image: python, command: [echo, "{{ who }}"]}
"""
RUNS = "/api/v1/acme/demo/runs"


async def commands(nats_client, bus_settings, subject=">"):
    js = nats_client.jetstream()
    stream = bus_settings.subjects.stream_name(StreamKind.COMMANDS)
    return [
        (subj, COMMANDS.decode(data)) for subj, data, _ in await read_stream(js, stream, subject)
    ]


async def test_create_publishes_submit_and_answers_202(client, nats_client, bus_settings):
    reply = await client.post(RUNS, json={"content": JOB, "params": {"who": "x"}, "queue": "q1"})
    assert reply.status_code == 202, reply.text
    run_uuid = reply.json()["uuid"]
    assert len(run_uuid) == 32
    [(subject, event)] = await commands(nats_client, bus_settings)
    assert subject == bus_settings.subjects.command("scheduler", "submit")
    assert event.type == "axonal.scheduler.submit"
    assert event.data.run_uuid == run_uuid
    assert (event.data.owner, event.data.project, event.data.queue) == ("acme", "demo", "q1")
    assert event.data.files == [JOB]
    assert event.data.params == {"who": "x"}
    assert event.project == "acme/demo"


async def test_idempotency_key_reuses_the_run(client, make_app, nats_client, bus_settings):
    body = {"files": [JOB], "params": {"who": "x"}}
    headers = {"Idempotency-Key": "abc"}
    first = await client.post(RUNS, json=body, headers=headers)
    replica = make_app()  # another api process: nothing is kept in memory
    async with replica.router.lifespan_context(replica):
        transport = httpx.ASGITransport(app=replica)
        async with httpx.AsyncClient(
            transport=transport, base_url="http://api", headers=OPERATOR
        ) as other_api:
            second = await other_api.post(RUNS, json=body, headers=headers)
    other = await client.post(RUNS, json=body)
    assert first.json()["uuid"] == second.json()["uuid"] != other.json()["uuid"]
    js = nats_client.jetstream()
    stream = bus_settings.subjects.stream_name(StreamKind.COMMANDS)
    assert await stream_count(js, stream) == 2  # the retry was deduplicated by Nats-Msg-Id


async def test_invalid_polyaxonfile_is_a_400_with_located_problems(
    client, nats_client, bus_settings
):
    reply = await client.post(RUNS, json={"content": JOB})  # `who` has no value
    assert reply.status_code == 400
    body = reply.json()
    assert body["code"] == "invalid_polyaxonfile"
    assert any("who" in d["message"] for d in body["details"])
    broken = await client.post(RUNS, json={"content": "kind: component\nrun: [1"})
    assert broken.status_code == 400
    assert "YAML" in broken.json()["message"]
    missing = await client.post(RUNS, json={"params": {}})
    assert missing.status_code == 422
    assert missing.json()["code"] == "invalid"
    js = nats_client.jetstream()
    assert await stream_count(js, bus_settings.subjects.stream_name(StreamKind.COMMANDS)) == 0


async def test_reads_go_through_rpcs(client, platform):
    run = platform.add_run()
    platform.add_run(status=RunStatus.FAILED)
    platform.add_run(project="other")
    listed = (await client.get(RUNS)).json()
    assert listed["total"] == 2
    failed = (await client.get(RUNS, params={"status": "failed"})).json()
    assert [r["status"] for r in failed["runs"]] == ["failed"]
    page = (await client.get(RUNS, params={"limit": 1, "offset": 1})).json()
    assert len(page["runs"]) == 1
    got = await client.get(f"{RUNS}/{run.uuid}")
    assert got.status_code == 200
    assert got.json()["uuid"] == run.uuid
    history = (await client.get(f"{RUNS}/{run.uuid}/statuses")).json()
    assert [c["status"] for c in history["changes"]] == ["created", "running"]
    platform.add_lines(run.uuid, "one", "two", "three")
    logs = (await client.get(f"{RUNS}/{run.uuid}/logs", params={"after": 1, "limit": 1})).json()
    assert [line["line"] for line in logs["lines"]] == ["two"]
    assert logs["done"] is False


async def test_list_filters_reach_the_scheduler(client, platform):
    monday = datetime(2026, 11, 30, tzinfo=UTC)
    resnet = platform.add_run(name="Train-ResNet", tags=["cv", "gpu"], created_at=monday)
    dag = platform.add_run(kind="dag", tags=["cv"], created_at=monday + timedelta(days=1))
    platform.add_run(name="eval", created_at=monday + timedelta(days=2))

    async def listed(**params):
        reply = await client.get(RUNS, params=params)
        assert reply.status_code == 200, reply.text
        return [run["uuid"] for run in reply.json()["runs"]]

    assert await listed(kind="dag") == [dag.uuid]
    assert await listed(tag=["cv"]) == [resnet.uuid, dag.uuid]
    assert await listed(tag=["gpu", "cv"]) == [resnet.uuid]
    assert await listed(name="RESNET") == [resnet.uuid]
    day2 = (monday + timedelta(days=1)).isoformat()
    assert await listed(created_after=day2, created_before="2026-12-02T00:00:00Z") == [dag.uuid]
    naive = await client.get(RUNS, params={"created_after": "2026-12-01T00:00:00"})
    assert naive.status_code == 422  # a time without its zone is ambiguous


async def test_a_read_run_has_its_agent_and_compiled_spec(client, platform):
    run = platform.add_run(agent="agent-1", compiled={"kind": "compiled_operation"})
    got = (await client.get(f"{RUNS}/{run.uuid}")).json()
    assert (got["agent"], got["compiled"]) == ("agent-1", {"kind": "compiled_operation"})


async def test_missing_runs_are_404_and_other_projects_runs_too(client, platform):
    missing = await client.get(f"{RUNS}/{'0' * 32}")
    assert missing.status_code == 404
    assert missing.json()["code"] == "not_found"
    elsewhere = platform.add_run(project="other")
    assert (await client.get(f"{RUNS}/{elsewhere.uuid}")).status_code == 404
    assert (await client.post(f"{RUNS}/{elsewhere.uuid}/stop")).status_code == 404


@pytest.mark.parametrize("verb", ["stop", "restart", "resume", "approve", "skip"])
async def test_actions_publish_run_action(client, platform, nats_client, bus_settings, verb):
    run = platform.add_run()
    reply = await client.post(f"{RUNS}/{run.uuid}/{verb}")
    assert reply.status_code == 202, reply.text
    [(subject, event)] = await commands(nats_client, bus_settings)
    assert subject == bus_settings.subjects.command("scheduler", verb)
    assert event.data.verb == verb
    assert event.data.run_uuid == run.uuid
    assert (event.data.new_run_uuid is not None) == (verb == "restart")
    assert reply.json()["new_uuid"] == event.data.new_run_uuid


async def test_delete_publishes_delete(client, platform, nats_client, bus_settings):
    run = platform.add_run()
    assert (await client.delete(f"{RUNS}/{run.uuid}")).status_code == 202
    [(subject, _event)] = await commands(nats_client, bus_settings)
    assert subject == bus_settings.subjects.command("scheduler", "delete")


async def test_projects_through_identity(client):
    created = await client.post("/api/v1/projects", json={"owner": "acme", "name": "demo"})
    assert created.status_code == 201
    again = await client.post("/api/v1/projects", json={"owner": "acme", "name": "demo"})
    assert again.status_code == 409
    assert "already exists" in again.json()["message"]
    listed = (await client.get("/api/v1/projects")).json()
    assert [p["name"] for p in listed["projects"]] == ["demo"]


async def test_without_services_reads_are_503_with_a_hint(make_app):
    app = make_app()
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(
            transport=transport, base_url="http://api", headers=OPERATOR
        ) as http:
            reply = await http.get(RUNS)
            assert (await http.get("/healthz")).json()["status"] == "ok"
    assert reply.status_code == 503
    assert reply.json()["code"] == "unavailable"
    assert "axonal status" in reply.json()["message"]


async def test_bearer_token_when_configured(make_app, platform):
    app = make_app(api_token="s3cret")
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://api") as http:
            denied = await http.get(RUNS)
            wrong = await http.get(RUNS, headers={"Authorization": "Bearer nope"})
            allowed = await http.get(RUNS, headers={"Authorization": "Bearer s3cret"})
            health = await http.get("/healthz")
    assert denied.status_code == wrong.status_code == 401
    assert denied.json()["code"] == "unauthorized"
    assert allowed.status_code == 200
    assert health.status_code == 200


async def test_a_run_token_reaches_its_own_project_only(make_app, platform):
    secret = "run-token-secret-of-32-bytes-long!!"
    app = make_app(api_token="s3cret", run_token_secret=secret)
    token = issue_run_token(secret, "0" * 32, "acme/demo", timedelta(hours=1))
    stale = issue_run_token(
        secret, "0" * 32, "acme/demo", timedelta(hours=1), now=datetime.now(UTC) - timedelta(days=1)
    )
    forged = issue_run_token(
        "another-secret-of-32-bytes-long!!!", "0" * 32, "acme/demo", timedelta(hours=1)
    )
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://api") as http:

            async def get(path, bearer):
                return await http.get(path, headers={"Authorization": f"Bearer {bearer}"})

            own = await get(RUNS, token)
            other = await get("/api/v1/acme/other/runs", token)
            projects = await get("/api/v1/projects", token)
            expired = await get(RUNS, stale)
            wrong = await get(RUNS, forged)
    assert own.status_code == 200, own.text
    assert other.status_code == 403
    assert projects.status_code == 200  # the projects it may see: its own
    assert {p["name"] for p in projects.json()["projects"]} <= {"demo"}
    assert other.json()["code"] == "forbidden"
    assert other.json()["message"] == "this run token is valid for project acme/demo only"
    assert expired.status_code == wrong.status_code == 401
    assert "expired" in expired.json()["message"]


async def test_api_answers_ping(client, nats_client, bus_settings):
    reply = await ping(nats_client, bus_settings.subjects, "api", 2.0)
    assert reply.service == "api"
    assert reply.status == "ok"


def events_of(text: str) -> list[tuple[str, dict]]:
    out = []
    for block in text.strip().split("\n\n"):
        fields = dict(line.split(": ", 1) for line in block.splitlines())
        fields.pop("id", None)
        out.append((fields["event"], json.loads(fields["data"])))
    return out


async def test_log_stream_sends_stored_then_new_lines_and_ends_when_done(
    live_url, platform, nats_client, bus_settings
):
    run = platform.add_run()
    platform.add_lines(run.uuid, "stored-1", "stored-2")
    subject = bus_settings.subjects.ingest(f"logs.{run.uuid}")
    received: list[bytes] = []

    async def follow():
        async with (
            httpx.AsyncClient(base_url=live_url, headers=OPERATOR) as client,
            client.stream("GET", f"{RUNS}/{run.uuid}/logs/stream") as reply,
        ):
            assert reply.status_code == 200
            assert reply.headers["content-type"].startswith("text/event-stream")
            async for chunk in reply.aiter_bytes():
                received.append(chunk)

    task = asyncio.create_task(follow())
    await wait_for(lambda: b"stored-2" in b"".join(received), message="stored lines")
    now = datetime.now(UTC)
    records = [LogRecord(seq=3, at=now, stream="stderr", line="live-3")]
    batch = LogBatch(run_uuid=run.uuid, attempt=1, records=records)
    platform.add_lines(run.uuid, "live-3")  # what the scheduler stores
    await nats_client.publish(subject, batch.model_dump_json().encode())
    await wait_for(lambda: b"live-3" in b"".join(received), message="live line")
    platform.set_status(run.uuid, RunStatus.SUCCEEDED)
    done = {"subject": run.uuid, "type": "axonal.run.done"}
    await nats_client.publish(bus_settings.subjects.event("run.done"), json.dumps(done).encode())
    await asyncio.wait_for(task, 10)
    events = events_of(b"".join(received).decode())
    assert [e[1].get("line") for e in events if e[0] == "log"] == [
        "stored-1",
        "stored-2",
        "live-3",
    ]
    assert events[-1][0] == "done"


async def test_log_stream_of_a_done_run_ends_after_the_stored_lines(client, platform):
    run = platform.add_run(status=RunStatus.FAILED)
    platform.add_lines(run.uuid, "a", "b")
    reply = await client.get(f"{RUNS}/{run.uuid}/logs/stream")
    events = events_of(reply.text)
    assert [name for name, _ in events] == ["log", "log", "done"]


async def test_log_stream_resumes_after_the_last_event_id(client, platform):
    run = platform.add_run(status=RunStatus.SUCCEEDED)
    platform.add_lines(run.uuid, "a", "b", "c")
    reply = await client.get(f"{RUNS}/{run.uuid}/logs/stream", headers={"Last-Event-ID": "2"})
    events = events_of(reply.text)
    assert [(name, data.get("line")) for name, data in events] == [("log", "c"), ("done", None)]
    assert "id: 3\n" in reply.text
