"""``POST .../events``: CloudEvents from outside land on the EVENTS stream, bad ones are 4xx."""

from __future__ import annotations

import asyncio
import json

from typer.testing import CliRunner

import axonal.cli
from axonal_events import StreamKind
from axonal_testing.api_fakes import OPERATOR_TOKEN
from axonal_testing.bus import read_stream

URL = "/api/v1/acme/demo/events"
STRUCTURED = {"content-type": "application/cloudevents+json"}


def event(**overrides):
    return {
        "specversion": "1.0",
        "id": "evt-1",
        "source": "https://ci.example.com/pipelines",
        "type": "dataset.updated",
        "time": "2026-12-01T10:00:00Z",
        "datacontenttype": "application/json",
        "data": {"dataset": "reviews", "version": 7},
        "partition": "eu1",
        **overrides,
    }


async def landed(nats_client, bus_settings):
    """Every integration event on the EVENTS stream: (subject, document)."""
    stream = bus_settings.subjects.stream_name(StreamKind.EVENTS)
    found = await read_stream(nats_client.jetstream(), stream, f"{bus_settings.namespace}.ext.>")
    return [(subject, json.loads(data)) for subject, data, _ in found]


async def test_structured_binary_and_batched_events_land_once_as_sent(
    client, nats_client, bus_settings
):
    first = await client.post(URL, content=json.dumps(event()), headers=STRUCTURED)
    again = await client.post(URL, content=json.dumps(event()), headers=STRUCTURED)
    assert first.status_code == again.status_code == 202, first.text
    ns = bus_settings.namespace
    assert first.json() == {
        "accepted": [
            {
                "id": "evt-1",
                "source": "https://ci.example.com/pipelines",
                "type": "dataset.updated",
                "subject": f"{ns}.ext.https_ci_example_com_pipelines.dataset.updated",
            }
        ]
    }
    binary = await client.post(
        URL,
        content=b'{"rows": 12}',
        headers={
            "ce-specversion": "1.0",
            "ce-id": "b-1",
            "ce-source": "warehouse",
            "ce-type": "table.loaded",
            "ce-tenant": "t9",
            "content-type": "application/json",
        },
    )
    assert binary.status_code == 202, binary.text
    batch = await client.post(
        URL,
        content=json.dumps([event(id="evt-2"), event(id="evt-3", data=None)]),
        headers={"content-type": "application/cloudevents-batch+json"},
    )
    assert [a["id"] for a in batch.json()["accepted"]] == ["evt-2", "evt-3"]

    found = await landed(nats_client, bus_settings)
    by_id = {doc["id"]: (subject, doc) for subject, doc in found}
    assert sorted(by_id) == ["b-1", "evt-1", "evt-2", "evt-3"]  # evt-1 once
    subject, doc = by_id["evt-1"]
    assert doc == {**event(), "project": "acme/demo"}
    subject, doc = by_id["b-1"]
    assert subject == f"{ns}.ext.warehouse.table.loaded"
    assert doc["data"] == {"rows": 12}
    assert doc["tenant"] == "t9"
    assert doc["datacontenttype"] == "application/json"


async def test_bad_events_are_refused_with_the_reason_and_nothing_is_stored(
    client, nats_client, bus_settings
):
    cases = [
        (event(specversion="0.3"), "specversion"),
        (event(type="axonal.run.succeeded"), "platform's own"),
        (event(id=""), "id"),
        (event(time="yesterday"), "time"),
        (event(time="2026-12-01T10:00:00"), "timezone"),
        (event(**{"Bad-Name": 1}), "not a CloudEvents attribute name"),
        (event(project="acme/other"), "project"),
        (event(data_base64="AA=="), "not both"),
    ]
    for doc, reason in cases:
        reply = await client.post(URL, content=json.dumps(doc), headers=STRUCTURED)
        assert reply.status_code == 400, (doc, reply.text)
        assert reason in reply.json()["message"], (reason, reply.json())
    batch = await client.post(
        URL,
        content=json.dumps([event(id="fine"), event(id="")]),
        headers={"content-type": "application/cloudevents-batch+json"},
    )
    assert batch.status_code == 400
    assert batch.json()["message"].startswith("event 1: id")
    not_json = await client.post(URL, content=b"{", headers=STRUCTURED)
    assert not_json.status_code == 400
    plain = await client.post(URL, content=b"{}", headers={"content-type": "application/json"})
    assert plain.status_code == 415
    assert "ce-specversion" in plain.json()["message"]
    huge = await client.post(URL, content=b"x" * (1024 * 1024 + 1), headers=STRUCTURED)
    assert huge.status_code == 413

    found = await landed(nats_client, bus_settings)
    assert found == []


async def test_the_cli_publishes_an_event(live_url, nats_client, bus_settings, tmp_path):
    data = tmp_path / "data.json"
    data.write_text('{"dataset": "reviews"}')

    def invoke(*args):
        return CliRunner().invoke(
            axonal.cli.app,
            ["events", "publish", *args, "-p", "acme/demo", "--api-url", live_url],
            env={"COLUMNS": "200", "AXONAL_API_TOKEN": OPERATOR_TOKEN},
        )

    done = await asyncio.to_thread(invoke, "dataset.updated", "--data", f"@{data}", "--id", "e9")
    assert done.exit_code == 0, done.output
    assert "published dataset.updated e9" in done.stdout
    bad = await asyncio.to_thread(invoke, "dataset.updated", "--data", "{nope")
    assert bad.exit_code == 1
    assert "--data is not JSON" in bad.output
    forged = await asyncio.to_thread(invoke, "axonal.run.succeeded")
    assert forged.exit_code == 1
    assert "platform's own" in forged.output

    [(subject, doc)] = await landed(nats_client, bus_settings)
    assert subject.endswith(".ext.axonal-cli.dataset.updated")
    assert (doc["id"], doc["data"], doc["project"]) == ("e9", {"dataset": "reviews"}, "acme/demo")
