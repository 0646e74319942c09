import json
from pathlib import Path

from axonal_events import CATALOG
from axonal_events.asyncapi import asyncapi_document, render

COMMITTED = Path(__file__).parents[3] / "docs" / "asyncapi.json"


def test_committed_asyncapi_document_is_current():
    assert COMMITTED.read_text() == render(), (
        "docs/asyncapi.json is stale: run `make asyncapi` and commit the result"
    )


def test_document_lists_every_event_with_its_payload_schema():
    doc = asyncapi_document()
    assert doc["asyncapi"] == "3.0.0"
    for entry in CATALOG:
        channel = doc["channels"][entry.event_type]
        assert channel["address"] == f"axonal.evt.{entry.event_type}"
        message = doc["components"]["messages"][f"{entry.event_type}.v{entry.version}"]
        data_ref = message["payload"]["properties"]["data"]["$ref"]
        assert data_ref.rsplit("/", 1)[-1] in doc["components"]["schemas"]
    json.dumps(doc)  # serialisable
