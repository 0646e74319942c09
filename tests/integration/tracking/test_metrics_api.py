"""The api's metrics endpoints in front of the real tracking service (runs from a fake)."""

import asyncio
import json
from collections.abc import AsyncIterator
from datetime import UTC, datetime

import httpx
import pytest
import pytest_asyncio
from typer.testing import CliRunner

import axonal.cli
from axonal_api.app import build_app
from axonal_api.settings import ApiSettings
from axonal_bus.outbox import event_headers
from axonal_events import RunStatus
from axonal_testing.api_fakes import OPERATOR, OPERATOR_TOKEN, FakePlatform, api_in_thread
from axonal_testing.bus import make_broker, running
from axonal_testing.factories import run_event
from axonal_testing.waiting import wait_for

from .conftest import batch, send


@pytest_asyncio.fixture
async def platform(bus_settings) -> AsyncIterator[FakePlatform]:
    fake = FakePlatform()
    broker = make_broker(bus_settings, service="fakes")
    fake.serve(broker, bus_settings.subjects)
    async with running(broker):
        yield fake


@pytest_asyncio.fixture
async def http(bus_settings, platform, tracking) -> AsyncIterator[httpx.AsyncClient]:
    settings = ApiSettings(
        nats_url=bus_settings.nats_url, namespace=bus_settings.namespace, api_token=OPERATOR_TOKEN
    )
    app = build_app(settings)
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(
            transport=transport, base_url="http://api", headers=OPERATOR
        ) as client:
            yield client


async def test_points_logged_over_http_are_read_back(http, platform, nats_client, tracking):
    run = platform.add_run()
    created = run_event(RunStatus.CREATED, run_uuid=run.uuid)
    js = nats_client.jetstream()
    subject = tracking.subjects.event(created.event_type)
    await js.publish(subject, created.to_json(), headers=event_headers(created))
    url = f"/api/v1/acme/demo/runs/{run.uuid}/metrics"
    at = datetime.now(UTC).isoformat()
    body = {
        "run_uuid": run.uuid,
        "points": [{"name": "loss", "step": s, "value": 1 / (s + 1), "at": at} for s in range(50)],
    }
    first = await http.post(url, json=body, headers={"Idempotency-Key": "b1"})
    again = await http.post(url, json=body, headers={"Idempotency-Key": "b1"})
    assert first.status_code == again.status_code == 202, first.text
    assert first.json() == {"run_uuid": run.uuid, "points": 50}

    async def read():
        reply = await http.get(url, params={"name": "loss", "points": 10})
        series = reply.json()["series"]
        return series if series and series[0]["total"] == 50 else None

    [loss] = await wait_for(read, message="50 points readable")
    assert len(loss["points"]) == 10
    assert loss["points"][-1] == {
        "step": 49, "value": 1 / 50, "min": 1 / 50, "max": 1 / 46, "nans": 0,
        "at": at.replace("+00:00", "Z"),
    }  # fmt: skip

    zoom = {"name": "loss", "points": 10, "first_step": 20, "last_step": 24}
    [part] = (await http.get(url, params=zoom)).json()["series"]
    assert [(p["step"], p["value"]) for p in part["points"]] == [
        (s, 1 / (s + 1)) for s in range(20, 25)
    ]
    assert part["total"] == 5
    backwards = await http.get(url, params={"first_step": 9, "last_step": 3})
    assert backwards.status_code == 400, backwards.text


async def test_non_finite_values_go_in_and_come_out_as_strings(
    http, platform, nats_client, tracking
):
    run = platform.add_run()
    created = run_event(RunStatus.CREATED, run_uuid=run.uuid)
    subject = tracking.subjects.event(created.event_type)
    await nats_client.jetstream().publish(
        subject, created.to_json(), headers=event_headers(created)
    )
    url = f"/api/v1/acme/demo/runs/{run.uuid}/metrics"
    sent = [0.5, "NaN", "Infinity", "-Infinity"]
    at = datetime.now(UTC).isoformat()
    body = {
        "run_uuid": run.uuid,
        "points": [{"name": "loss", "step": s, "value": v, "at": at} for s, v in enumerate(sent)],
    }
    assert (await http.post(url, json=body)).status_code == 202

    async def read():
        reply = await http.get(url)
        series = reply.json()["series"]
        return series if series and series[0]["total"] == 4 else None

    [loss] = await wait_for(read, message="4 points readable")
    assert [p["value"] for p in loss["points"]] == sent
    assert [p["nans"] for p in loss["points"]] == [0, 1, 0, 0]


async def test_bad_batches_are_4xx(http, platform):
    run = platform.add_run()
    url = f"/api/v1/acme/demo/runs/{run.uuid}/metrics"
    point = {"name": "loss", "step": 1, "value": 1.0, "at": "2026-01-01T00:00:00Z"}
    other = await http.post(url, json={"run_uuid": "f" * 32, "points": [point]})
    assert other.status_code == 400
    assert "run_uuid" in other.json()["message"]
    word = await http.post(url, json={"run_uuid": run.uuid, "points": [{**point, "value": "lots"}]})
    assert word.status_code == 422
    elsewhere = await http.post(f"/api/v1/acme/other/runs/{run.uuid}/metrics", json={})
    assert elsewhere.status_code in (404, 422)


@pytest.fixture
def cli(bus_settings, platform, tracking, monkeypatch):
    """``await cli("ops", ...)``: the CLI against a real api app in a thread; its stdout."""
    settings = ApiSettings(
        nats_url=bus_settings.nats_url, namespace=bus_settings.namespace, api_token=OPERATOR_TOKEN
    )
    with api_in_thread(lambda: build_app(settings), bus_settings, platform) as url:
        monkeypatch.setenv("AXONAL_API_URL", url)
        monkeypatch.setenv("AXONAL_API_TOKEN", OPERATOR_TOKEN)
        monkeypatch.setenv("AXONAL_PROJECT", "acme/demo")

        async def run(*args):
            invoke = CliRunner().invoke
            result = await asyncio.to_thread(
                invoke, axonal.cli.app, list(args), env={"COLUMNS": "200"}
            )
            assert result.exit_code == 0, result.output
            return result.stdout

        yield run


async def test_cli_shows_a_runs_metrics(cli, platform, nats_client, tracking):
    run = platform.add_run()
    js = nats_client.jetstream()
    created = run_event(RunStatus.CREATED, run_uuid=run.uuid)
    subject = tracking.subjects.event(created.event_type)
    await js.publish(subject, created.to_json(), headers=event_headers(created))
    await send(js, tracking.subjects, run.uuid, batch(run.uuid, "loss", range(3000)))
    await send(js, tracking.subjects, run.uuid, batch(run.uuid, "acc", range(10)))

    async def complete():
        doc = json.loads(await cli("ops", "metrics", run.uuid, "--json"))
        return doc if sum(s["total"] for s in doc["series"]) == 3010 else None

    doc = await wait_for(complete, message="3,010 points")
    table = await cli("ops", "metrics", run.uuid, "-n", "loss")
    assert [len(s["points"]) for s in doc["series"]] == [10, 1000]  # acc whole, loss reduced
    assert "loss" in table
    assert "3,000" in table
    assert "2999" in table
    assert "acc" not in table


async def test_cli_manages_alert_rules(bus_settings, platform, tracking, monkeypatch):
    settings = ApiSettings(
        nats_url=bus_settings.nats_url, namespace=bus_settings.namespace, api_token=OPERATOR_TOKEN
    )
    with api_in_thread(lambda: build_app(settings), bus_settings, platform) as url:
        monkeypatch.setenv("AXONAL_API_URL", url)
        monkeypatch.setenv("AXONAL_API_TOKEN", OPERATOR_TOKEN)
        monkeypatch.setenv("AXONAL_PROJECT", "acme/demo")

        def invoke(*args):
            return CliRunner().invoke(axonal.cli.app, list(args), env={"COLUMNS": "200"})

        async def run(*args):
            return await asyncio.to_thread(invoke, *args)

        created = await run("alerts", "create", "loss", "gt", "5", "--for", "3", "--json")
        assert created.exit_code == 0, created.output
        rule = json.loads(created.stdout)
        assert (rule["metric"], rule["comparison"], rule["for_points"]) == ("loss", "gt", 3)
        table = await run("alerts", "ls")
        assert "loss > 5" in table.stdout
        bad = await run("alerts", "create", "loss", "above", "5")
        assert bad.exit_code == 1
        assert "comparison" in bad.output
        deleted = await run("alerts", "rm", rule["id"], "--json")
        assert json.loads(deleted.stdout) == {"rules": []}
        gone = await run("alerts", "rm", rule["id"])
        assert gone.exit_code == 1
        assert f"alert rule {rule['id']} does not exist" in gone.output


async def _runs_with_metrics(platform, nats_client, tracking) -> tuple[str, str]:
    js = nats_client.jetstream()
    first = platform.add_run(name="lr-high", inputs={"lr": 0.1, "batch": 32}, outputs={"ok": 1})
    second = platform.add_run(name="lr-low", inputs={"lr": 0.01, "batch": 32})
    for run, loss in ((first, 0.5), (second, 0.25)):
        created = run_event(RunStatus.CREATED, run_uuid=run.uuid)
        subject = tracking.subjects.event(created.event_type)
        await js.publish(subject, created.to_json(), headers=event_headers(created))
        await send(js, tracking.subjects, run.uuid, batch(run.uuid, "loss", range(5), value=loss))
        await send(js, tracking.subjects, run.uuid, batch(run.uuid, "acc", range(5), value=0.9))
    return first.uuid, second.uuid


async def test_runs_are_compared_side_by_side(http, platform, nats_client, tracking):
    first, second = await _runs_with_metrics(platform, nats_client, tracking)

    async def compared():
        reply = await http.get("/api/v1/acme/demo/compare", params={"run": [first, second]})
        assert reply.status_code == 200, reply.text
        doc = reply.json()
        return doc if all(len(r["metrics"]) == 2 for r in doc["runs"]) else None

    doc = await wait_for(compared, message="metrics of both runs")
    assert [r["name"] for r in doc["runs"]] == ["lr-high", "lr-low"]
    assert (doc["inputs"], doc["outputs"], doc["metrics"]) == (
        ["batch", "lr"],
        ["ok"],
        ["acc", "loss"],
    )
    assert doc["differing"] == ["inputs.lr", "outputs.ok", "metrics.loss"]
    assert doc["runs"][1]["metrics"] == {"loss": 0.25, "acc": 0.9}

    elsewhere = platform.add_run(project="other")
    refused = await http.get("/api/v1/acme/demo/compare", params={"run": [first, elsewhere.uuid]})
    assert refused.status_code == 404
    assert elsewhere.uuid in refused.json()["message"]
    assert (await http.get("/api/v1/acme/demo/compare")).status_code == 422


async def test_cli_compares_runs(cli, platform, nats_client, tracking):
    first, second = await _runs_with_metrics(platform, nats_client, tracking)

    async def complete():
        doc = json.loads(await cli("ops", "compare", first, second, "--json"))
        return doc if all(len(r["metrics"]) == 2 for r in doc["runs"]) else None

    await wait_for(complete, message="metrics of both runs")
    table = await cli("ops", "compare", first, second)
    everything = await cli("ops", "compare", first, second, "--all")
    assert "lr-high" in table
    assert "input lr" in table
    assert "0.01" in table
    assert "metric loss" in table
    assert "batch" not in table  # the same in both runs
    assert "2 rows the same in every run" in table
    assert "input batch" in everything
    assert "metric acc" in everything
