"""The artifact endpoints' refusals, lineage between runs, the DLQ and the CLI."""

import asyncio
import hashlib
import json

from typer.testing import CliRunner

import axonal.cli
from axonal import tracking
from axonal_events import StreamKind
from axonal_testing.bus import read_stream
from axonal_testing.waiting import wait_for

from .conftest import MAX_BYTES, PROJECT, listed, run_token


async def test_an_oversize_upload_is_413(http, platform, store):
    run = platform.add_run()
    url = f"/api/v1/{PROJECT}/runs/{run.uuid}/artifacts/big.bin"
    declared = await http.put(url, content=b"x" * (MAX_BYTES + 1))
    assert declared.status_code == 413
    assert f"{MAX_BYTES:,} bytes" in declared.json()["message"]

    async def chunks():  # no Content-Length: the limit is found while streaming
        for _ in range(MAX_BYTES // 50_000 + 1):
            yield b"y" * 50_000

    streamed = await http.put(url, content=chunks())
    assert streamed.status_code == 413
    assert not [p for p in store.rglob("*") if p.is_file()]  # nothing half-written is kept


async def test_bad_uploads_are_readable_4xx(http, platform):
    run = platform.add_run()
    base = f"/api/v1/{PROJECT}/runs/{run.uuid}/artifacts"
    bad_summary = await http.put(f"{base}/a.txt", content=b"a", headers={"Axonal-Summary": "[1"})
    assert bad_summary.status_code == 400
    assert "Axonal-Summary" in bad_summary.json()["message"]
    bad_name = await http.put(f"{base}/with space.txt", content=b"a")
    assert bad_name.status_code == 400
    assert "?name=" in bad_name.json()["message"]
    bad_path = await http.put(f"{base}/a/%2E%2E/b.txt", params={"name": "b"}, content=b"a")
    assert bad_path.status_code == 400
    assert "'..' segments" in bad_path.json()["message"]
    bad_kind = await http.put(f"{base}/a.txt", params={"kind": "movie"}, content=b"a")
    assert bad_kind.status_code == 422
    other_run = await http.put(f"/api/v1/{PROJECT}/runs/{'f' * 32}/artifacts/a.txt", content=b"a")
    assert other_run.status_code == 404


async def test_a_token_of_another_project_is_403(http, platform):
    run = platform.add_run()
    url = f"/api/v1/{PROJECT}/runs/{run.uuid}/artifacts/a.txt"
    foreign = {"Authorization": f"Bearer {run_token(run.uuid, 'acme/other')}"}
    refused = await http.put(url, content=b"a", headers=foreign)
    assert refused.status_code == 403
    assert "acme/other" in refused.json()["message"]
    own = {"Authorization": f"Bearer {run_token(run.uuid)}"}
    assert (await http.put(url, content=b"a", headers=own)).status_code == 201
    assert (await http.get(url, headers=foreign)).status_code == 403


async def test_lineage_links_a_producer_and_a_consumer(http, platform, in_run, tmp_path):
    producer, consumer = platform.add_run(), platform.add_run()
    shared = tmp_path / "features.csv"
    shared.write_text("x,y\n1,2\n")
    in_run(producer)
    await asyncio.to_thread(tracking.log_artifact, shared)
    in_run(consumer)
    await asyncio.to_thread(tracking.log_artifact, shared, "features", is_input=True)
    await asyncio.to_thread(tracking.log_text, "report", "done")
    await listed(http, consumer.uuid, 2)
    await listed(http, producer.uuid, 1)

    upstream = (await http.get(f"/api/v1/{PROJECT}/runs/{consumer.uuid}/lineage")).json()
    [used] = upstream["inputs"]
    assert used["artifact"]["sha256"] == hashlib.sha256(shared.read_bytes()).hexdigest()
    assert (used["produced_by"], used["consumed_by"]) == ([producer.uuid], [])
    [report] = upstream["outputs"]
    assert (report["produced_by"], report["consumed_by"]) == ([], [])
    downstream = (await http.get(f"/api/v1/{PROJECT}/runs/{producer.uuid}/lineage")).json()
    [made] = downstream["outputs"]
    assert (made["produced_by"], made["consumed_by"]) == ([], [consumer.uuid])


async def test_a_malformed_record_goes_to_the_dlq(http, platform, in_run, nats_client, subjects):
    run = platform.add_run()
    js = nats_client.jetstream()
    bad = json.dumps({"run_uuid": run.uuid, "name": "x", "kind": "movie"}).encode()
    await js.publish(subjects.ingest(f"artifacts.{run.uuid}"), bad, headers={"Nats-Msg-Id": "b1"})
    in_run(run)
    await asyncio.to_thread(tracking.log_text, "after", "the consumer goes on")
    await listed(http, run.uuid, 1)

    async def dead():
        return await read_stream(js, subjects.stream_name(StreamKind.DLQ))

    [(_, data, headers)] = await wait_for(dead, message="dead-lettered")
    assert data == bad
    assert "not an artifact record" in headers["Axonal-Dlq-Reason"]


async def test_the_cli_lists_downloads_and_shows_lineage(
    http, platform, in_run, api_url, tmp_path, monkeypatch
):
    run = platform.add_run()
    in_run(run)
    model = tmp_path / "model.pt"
    model.write_bytes(b"\x00weights" * 1000)
    await asyncio.to_thread(tracking.log_model, model, framework="torch")
    for step in (1, 2):
        await asyncio.to_thread(tracking.log_text, "notes", f"step {step}", step)
    await listed(http, run.uuid, 3)
    monkeypatch.setenv("AXONAL_API_TOKEN", "api-token-for-tests")

    def invoke(*args):
        return CliRunner().invoke(
            axonal.cli.app, ["ops", "artifacts", run.uuid, *args], env={"COLUMNS": "200"}
        )

    table = await asyncio.to_thread(invoke)
    assert table.exit_code == 0, table.output
    assert "model.pt" in table.stdout
    assert "7.8 KiB" in table.stdout
    assert "notes" in table.stdout
    as_json = json.loads((await asyncio.to_thread(invoke, "--json")).stdout)
    assert {a["kind"] for a in as_json} == {"model", "text"}

    got = await asyncio.to_thread(invoke, "--download", "model.pt", "--to", str(tmp_path / "out"))
    assert got.exit_code == 0, got.output
    assert (tmp_path / "out" / "model.pt").read_bytes() == model.read_bytes()
    latest = await asyncio.to_thread(invoke, "-d", "notes", "--to", str(tmp_path / "out"), "--json")
    assert json.loads(latest.stdout)["path"].endswith("notes-2.txt")
    assert (tmp_path / "out" / "notes-2.txt").read_text() == "step 2"
    missing = await asyncio.to_thread(invoke, "-d", "nothing")
    assert missing.exit_code == 1
    assert "no artifact 'nothing'" in missing.output
    lineage = await asyncio.to_thread(invoke, "--lineage")
    assert lineage.exit_code == 0, lineage.output
    assert "output" in lineage.stdout
