"""A polyaxonfile's hooks on the embedded stack: a failed run notifies the Slack connection
its ``failed`` hook names (a local receiver stands in for Slack), and its ``succeeded`` hook
stays quiet."""

from __future__ import annotations

import json
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from axonal_testing.receiver import Receiver, receiving
from axonal_testing.stack import RunningStack
from axonal_testing.waiting import wait_for_sync

pytestmark = pytest.mark.slow  # real processes on the embedded stack

HOOKED = f"""
version: 1.1
kind: component
name: nightly
hooks:
- trigger: failed
  hubRef: slack
  connection: team
- trigger: succeeded
  hubRef: slack
  connection: team
run:
  kind: job
  container:
    image: python
    command: [{json.dumps(sys.executable)}, -c, "import sys; sys.exit(3)"]
"""


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    with receiving() as server:
        yield server


def test_a_failed_run_notifies_the_slack_connection_of_its_failed_hook(
    stack: RunningStack, receiver: Receiver, tmp_path: Path
) -> None:
    project = f"e2e/hooks-{uuid.uuid4().hex[:8]}"
    url = receiver.url("/services/T0/B0/secret-token")
    created = stack.cli_json("connections", "create", "team", "slack", "--url", url, "-p", project)
    assert "secret-token" not in json.dumps(created)  # the URL's token is never shown back

    spec = tmp_path / "nightly.yaml"
    spec.write_text(HOOKED)
    run = stack.cli_json("run", "-f", str(spec), "-p", project)

    posted = wait_for_sync(lambda: receiver.bodies or None, timeout=60, message="Slack POST")
    [body] = posted
    assert body["text"].startswith(f"run nightly ({run['uuid']}) in {project} failed")
    facts = {f["text"].split("\n")[0]: f["text"].split("\n")[1]
             for f in body["blocks"][1]["fields"]}  # fmt: skip
    assert (facts["*Status*"], facts["*Hook*"], facts["*Trigger*"]) == ("failed", "slack", "failed")

    deliveries = stack.cli_json("connections", "deliveries", "team", "-p", project)
    [delivery] = deliveries["deliveries"]
    assert (delivery["status"], delivery["event_type"]) == ("delivered", "hook.requested")
    assert len(receiver.bodies) == 1  # the succeeded hook did not fire
