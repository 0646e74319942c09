"""An outside system's CloudEvent, posted to the events endpoint, starts the operation an
automation rule names, with a param read from the event's data (the CLI and HTTP as a user
drives them, on the embedded stack)."""

from __future__ import annotations

import json
import sys
import uuid
from pathlib import Path

import pytest

from axonal_testing.stack import RunningStack
from axonal_testing.waiting import wait_for_sync

pytestmark = pytest.mark.slow  # real processes on the embedded stack

RETRAIN = f"""
version: 1.1
kind: component
name: retrain
inputs:
- {{name: dataset, type: str}}
run:
  kind: job
  container:
    image: python
    command: [{json.dumps(sys.executable)}, -c, "print('training on {{{{ dataset }}}}')"]
"""


def test_a_posted_cloudevent_starts_the_rule_operation_with_a_param_from_its_data(
    stack: RunningStack, tmp_path: Path
) -> None:
    project = f"e2e/auto-{uuid.uuid4().hex[:8]}"
    spec = tmp_path / "retrain.yaml"
    spec.write_text(RETRAIN)
    rule = stack.cli_json(
        "automations", "create", "retrain", "--external", "--on", "dataset.updated",
        "--source", "/warehouse", "-f", str(spec), "--param-from", "dataset=data.uri",
        "-p", project,
    )  # fmt: skip
    assert (rule["event"], rule["params_from"]) == ("dataset.updated", {"dataset": "data.uri"})

    event = {"specversion": "1.0", "id": uuid.uuid4().hex, "source": "/warehouse",
             "type": "dataset.updated", "data": {"uri": "s3://lake/images/v7"}}  # fmt: skip
    with stack.http(timeout=10) as http:
        posted = http.post(
            f"/api/v1/{project}/events",
            content=json.dumps(event),
            headers={"content-type": "application/cloudevents+json"},
        )
        assert posted.status_code == 202, posted.text

        def started() -> dict | None:
            found = stack.cli_json("automations", "firings", rule["id"], "-p", project)
            return found["firings"][0] if found["firings"] else None

        firing = wait_for_sync(started, timeout=30, message="the rule fired")
        assert (firing["outcome"], firing["event_id"]) == ("started", event["id"])

        def done() -> dict | None:
            response = http.get(f"/api/v1/{project}/runs/{firing['run_uuid']}")
            run = response.json() if response.status_code == 200 else None
            return run if run and run["status"] in ("succeeded", "failed") else None

        run = wait_for_sync(done, timeout=60, message="the started run is done")
    assert (run["status"], run["inputs"]) == ("succeeded", {"dataset": "s3://lake/images/v7"})
    logs = stack.cli("ops", "logs", run["uuid"], "-p", project)
    assert "training on s3://lake/images/v7" in logs.stdout
