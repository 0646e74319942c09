"""The api's webhook routes and the ``axonal webhooks`` CLI in front of the real service."""

import asyncio
import json
from collections.abc import AsyncIterator

import httpx
import pytest_asyncio
from standardwebhooks import Webhook
from typer.testing import CliRunner

import axonal.cli
from axonal_api.app import build_app
from axonal_api.settings import ApiSettings
from axonal_events import RunStatus
from axonal_testing.api_fakes import OPERATOR, OPERATOR_TOKEN, api_in_thread
from axonal_testing.factories import run_event
from axonal_testing.waiting import wait_for

from .conftest import project, publish


@pytest_asyncio.fixture
async def http(bus_settings, notifications) -> AsyncIterator[httpx.AsyncClient]:
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


async def test_routes_manage_subscriptions_and_show_deliveries(
    http, nats_client, notifications, receiver
):
    name = project()
    base = f"/api/v1/{name}/webhooks"
    created = await http.post(base, json={"url": receiver.url, "events": ["run.*"]})
    assert created.status_code == 201, created.text
    hook = created.json()
    assert hook["secret"].startswith("whsec_")
    event = run_event(RunStatus.SUCCEEDED, project=name)
    await publish(nats_client, notifications, event)
    await wait_for(receiver.delivered, message="delivered")
    Webhook(hook["secret"]).verify(receiver.hits[0].body, receiver.hits[0].headers)

    async def delivered():
        reply = await http.get(f"{base}/{hook['id']}/deliveries")
        found = reply.json()["deliveries"]
        return found if found and found[0]["status"] == "delivered" else None

    [delivery] = await wait_for(delivered, message="delivery listed")
    assert delivery["id"] == event.id
    assert delivery["attempts"][0]["status_code"] == 200
    listed = (await http.get(base)).json()["webhooks"]
    assert [(w["id"], w["secret"]) for w in listed] == [(hook["id"], None)]
    one = await http.post(f"{base}/{hook['id']}/deliveries/{event.id}/replay")
    assert one.json() == {"replayed": 1}
    await wait_for(lambda: len(receiver.delivered()) == 2, message="replayed")
    dead = await http.post(f"{base}/{hook['id']}/replay")
    assert dead.json() == {"replayed": 0}
    window = {"since": "2026-01-01T00:00:00Z", "until": "2026-01-02T00:00:00Z"}
    in_window = await http.post(f"{base}/{hook['id']}/replay", json=window)
    assert in_window.json() == {"replayed": 0}
    deleted = await http.delete(f"{base}/{hook['id']}")
    assert deleted.json() == {"webhooks": []}


async def test_bad_input_is_a_readable_4xx(http, notifications):
    base = f"/api/v1/{project()}/webhooks"
    unknown = await http.post(base, json={"url": "https://example.com/", "events": ["run.done_"]})
    assert unknown.status_code == 422
    assert "unknown event type 'run.done_'" in unknown.text
    nothing = await http.post(base, json={"url": "https://example.com/", "events": ["x.*"]})
    assert nothing.status_code == 422
    assert "matches no event type" in nothing.text
    metadata = await http.post(base, json={"url": "http://169.254.169.254/", "events": ["*"]})
    assert metadata.status_code == 400
    assert metadata.json()["code"] == "invalid"
    assert "cloud metadata" in metadata.json()["message"]
    scheme = await http.post(base, json={"url": "gopher://example.com/", "events": ["*"]})
    assert scheme.status_code == 422
    missing = "0" * 32
    for unknown in (
        await http.delete(f"{base}/{missing}"),
        await http.get(f"{base}/{missing}/deliveries"),
        await http.post(f"{base}/{missing}/replay"),
    ):
        assert unknown.status_code == 404
        assert unknown.json()["code"] == "not_found"
    assert (await http.get(f"{base}/not-an-id/deliveries")).status_code == 422
    backwards = {"since": "2026-01-02T00:00:00Z", "until": "2026-01-01T00:00:00Z"}
    reversed_window = await http.post(f"{base}/{missing}/replay", json=backwards)
    assert reversed_window.status_code == 422
    assert "since must be before until" in reversed_window.text
    status = await http.get(f"{base}/{missing}/deliveries", params={"status": "lost"})
    assert status.status_code == 422


async def test_cli_manages_webhooks(
    bus_settings, nats_client, notifications, receiver, monkeypatch
):
    name = project()
    settings = ApiSettings(
        nats_url=bus_settings.nats_url, namespace=bus_settings.namespace, api_token=OPERATOR_TOKEN
    )
    with api_in_thread(lambda: build_app(settings), bus_settings) as url:
        monkeypatch.setenv("AXONAL_API_URL", url)
        monkeypatch.setenv("AXONAL_API_TOKEN", OPERATOR_TOKEN)
        monkeypatch.setenv("AXONAL_PROJECT", name)

        async def run(*args):
            return await asyncio.to_thread(
                CliRunner().invoke, axonal.cli.app, list(args), env={"COLUMNS": "200"}
            )

        shown = await run("webhooks", "create", receiver.url, "--event", "run.succeeded")
        assert shown.exit_code == 0, shown.output
        assert "whsec_" in shown.stdout
        assert "not shown again" in shown.stdout
        created = await run("webhooks", "create", receiver.url, "-e", "run.*", "--json")
        hook = json.loads(created.stdout)
        table = await run("webhooks", "ls")
        assert hook["id"] in table.stdout
        assert "whsec_" not in table.stdout
        event = run_event(RunStatus.SUCCEEDED, project=name)
        await publish(nats_client, notifications, event)

        async def listed():
            result = await run("webhooks", "deliveries", hook["id"], "--json")
            found = json.loads(result.stdout)["deliveries"]
            return found if found and found[0]["status"] == "delivered" else None

        await wait_for(listed, message="delivered")
        rows = await run("webhooks", "deliveries", hook["id"])
        assert event.id in rows.stdout
        assert "run.succeeded" in rows.stdout
        assert "200" in rows.stdout
        replayed = await run("webhooks", "replay", hook["id"], "--delivery", event.id, "--json")
        assert json.loads(replayed.stdout) == {"replayed": 1}
        dead = await run("webhooks", "replay", hook["id"])
        assert "0 deliveries queued again" in dead.stdout
        bad = await run("webhooks", "create", receiver.url, "-e", "run.finished")
        assert bad.exit_code == 1
        assert "unknown event type" in bad.output
        forbidden = await run("webhooks", "create", "http://169.254.169.254/", "-e", "*")
        assert forbidden.exit_code == 1
        assert "cloud metadata" in forbidden.output
        deleted = await run("webhooks", "rm", hook["id"], "--json")
        assert hook["id"] not in deleted.stdout
        gone = await run("webhooks", "rm", hook["id"])
        assert gone.exit_code == 1
        assert "not found" in gone.output
