"""The api's connection and alert route routes and ``axonal connections`` in front of the
real service."""

import asyncio
import json
from collections.abc import AsyncIterator

import httpx
import pytest_asyncio
from typer.testing import CliRunner

import axonal.cli
from axonal_api.app import build_app
from axonal_api.settings import ApiSettings
from axonal_testing.api_fakes import OPERATOR, OPERATOR_TOKEN, api_in_thread
from axonal_testing.waiting import wait_for

from .conftest import project, publish
from .test_connections import hook

TOKEN_PATH = "/services/T000/B000/tokentokentoken"


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


async def test_routes_manage_connections_and_alert_routes(
    http, nats_client, notifications, receiver
):
    name = project()
    base = f"/api/v1/{name}/connections"
    url = receiver.url + TOKEN_PATH
    created = await http.post(base, json={"name": "chat", "kind": "discord", "url": url})
    assert created.status_code == 201, created.text
    assert created.json()["url"] == f"http://127.0.0.1:{receiver.port}/****"
    listed = await http.get(base)
    assert "tokentoken" not in listed.text
    assert [c["name"] for c in listed.json()["connections"]] == ["chat"]
    assert (await http.get(f"{base}/chat")).json()["kind"] == "discord"

    event = hook(name, "chat", hub_ref="discord")
    await publish(nats_client, notifications, event)
    [hit] = await wait_for(receiver.delivered, message="discord message arrives")
    doc = json.loads(hit.body)
    assert doc["content"].startswith("run train-resnet")
    assert doc["allowed_mentions"] == {"parse": []}

    async def delivered():
        found = (await http.get(f"{base}/chat/deliveries")).json()["deliveries"]
        return found if found and found[0]["status"] == "delivered" else None

    [delivery] = await wait_for(delivered, message="delivery listed")
    assert delivery["id"] == event.id
    again = await http.post(f"{base}/chat/deliveries/{event.id}/replay")
    assert again.json() == {"replayed": 1}
    await wait_for(lambda: len(receiver.delivered()) == 2, message="replayed")
    since = {"since": delivery["created_at"]}
    assert (await http.post(f"{base}/chat/replay", json=since)).json() == {"replayed": 0}

    routes = f"/api/v1/{name}/alert-routes"
    route = await http.post(
        routes, json={"connection": "chat", "events": ["run.failed"], "dedup_seconds": 60}
    )
    assert route.status_code == 201, route.text
    assert (await http.get(routes)).json()["routes"][0]["id"] == route.json()["id"]
    assert (await http.delete(f"{routes}/{route.json()['id']}")).json() == {"routes": []}
    assert (await http.delete(f"{base}/chat")).json() == {"connections": []}


async def test_bad_connections_are_readable_4xx(http, notifications):
    name = project()
    base = f"/api/v1/{name}/connections"
    for body, status, text in [
        ({"name": "a", "kind": "sms", "url": "https://example.com/"}, 422, "'slack'"),
        ({"name": "a", "kind": "slack"}, 422, "needs url"),
        ({"name": "a", "kind": "email"}, 422, "needs smtp"),
        ({"name": "a", "kind": "pagerduty"}, 422, "needs routing_key"),
        ({"name": "a", "kind": "email", "smtp": {"host": "h", "sender": "x@y"}}, 422, "to"),
        ({"name": "a", "kind": "slack", "url": "http://169.254.169.254/x/T1"}, 400, "metadata"),
        ({"name": "a", "kind": "slack", "url": "http://10.0.0.1/x"}, 400, "private"),
        ({"name": "bad name", "kind": "slack", "url": "http://127.0.0.1/x"}, 422, "name"),
    ]:
        answer = await http.post(base, json=body)
        assert answer.status_code == status, (body, answer.text)
        assert text in answer.text, (body, answer.text)
        if status == 400:
            assert answer.json()["code"] == "invalid"
    ok = {"name": "a", "kind": "slack", "url": "http://127.0.0.1:9/x"}
    assert (await http.post(base, json=ok)).status_code == 201
    taken = await http.post(base, json=ok)
    assert (taken.status_code, taken.json()["code"]) == (409, "conflict")
    routes = f"/api/v1/{name}/alert-routes"
    for missing in (
        await http.get(f"{base}/missing"),
        await http.delete(f"{base}/missing"),
        await http.get(f"{base}/missing/deliveries"),
        await http.post(routes, json={"connection": "missing", "events": ["run.failed"]}),
        await http.delete(f"{routes}/{'0' * 32}"),
    ):
        assert (missing.status_code, missing.json()["code"]) == (404, "not_found")
    wrong = await http.post(routes, json={"connection": "a", "events": ["run.finished"]})
    assert wrong.status_code == 422
    assert "unknown event type" in wrong.text


async def test_cli_manages_connections_and_routes(bus_settings, notifications, monkeypatch):
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

        hook_url = "http://127.0.0.1:9" + TOKEN_PATH
        made = await run("connections", "create", "chat", "slack", "--url", hook_url)
        assert made.exit_code == 0, made.output
        mail = await run(
            "connections", "create", "mail", "email", "--smtp-host", "127.0.0.1",
            "--smtp-password", "hunter2", "--from", "a@example.com", "--to", "b@example.com",
            "--to", "c@example.com", "--json",
        )  # fmt: skip
        assert mail.exit_code == 0, mail.output
        assert json.loads(mail.stdout)["smtp"]["password"] == "****"
        signed = await run("connections", "create", "ci", "webhook", "--url", hook_url)
        assert "whsec_" in signed.stdout
        table = await run("connections", "ls")
        assert "chat" in table.stdout
        assert "b@example.com, c@example.com" in table.stdout
        for secret in ("tokentoken", "hunter2", "whsec_"):
            assert secret not in table.stdout
        listed = json.loads((await run("connections", "ls", "--json")).stdout)
        assert sorted(c["name"] for c in listed["connections"]) == ["chat", "ci", "mail"]

        route = await run(
            "connections", "routes", "create", "chat", "-e", "metric.crossed", "--dedup", "60",
            "--json",
        )  # fmt: skip
        assert route.exit_code == 0, route.output
        route_id = json.loads(route.stdout)["id"]
        routes = await run("connections", "routes", "ls")
        assert route_id in routes.stdout
        assert "metric.crossed" in routes.stdout
        gone = await run("connections", "routes", "rm", route_id, "--json")
        assert json.loads(gone.stdout) == {"routes": []}

        bad = await run("connections", "create", "x", "slack")
        assert bad.exit_code == 1
        assert "needs url" in bad.output
        refused = await run("connections", "create", "x", "teams", "--url", "http://10.0.0.1/a")
        assert refused.exit_code == 1
        assert "private" in refused.output
        removed = await run("connections", "rm", "chat", "--json")
        assert "chat" not in {c["name"] for c in json.loads(removed.stdout)["connections"]}
        missing = await run("connections", "rm", "chat")
        assert missing.exit_code == 1
        assert "not found" in missing.output
