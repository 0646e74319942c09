"""A polyaxonfile's hooks on the embedded stack: a failed run notifies the Slack connection
its ``failed`` hook names (a local receiver stands in for Slack), and its ``succeeded`` hook
stays quiet."""

from __future__ import annotations

import json
import sys
import threading
import uuid
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

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


class Receiver(ThreadingHTTPServer):
    """Notes every JSON body POSTed to it and answers 200 as Slack does."""

    def __init__(self) -> None:
        self.bodies: list[dict[str, Any]] = []

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers["content-length"])
                server.bodies.append(json.loads(self.rfile.read(length)))
                self.send_response(200)
                self.end_headers()
                self.wfile.write(b"ok")

            def log_message(self, *args: Any) -> None:
                pass

        server = self
        super().__init__(("127.0.0.1", 0), Handler)


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    server = Receiver()
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()


def cli_json(stack: RunningStack, *args: str) -> Any:
    result = stack.cli(*args, "--json", timeout=60)
    assert result.returncode == 0, f"axonal {args}: {result.stdout}\n{result.stderr}"
    return json.loads(result.stdout)


def test_a_failed_run_notifies_the_slack_connection_of_its_failed_hook(
    stack: RunningStack, receiver: Receiver, tmp_path: Path
) -> None:
    project = f"e2e/hooks-{uuid.uuid4().hex[:8]}"
    url = f"http://127.0.0.1:{receiver.server_address[1]}/services/T0/B0/secret-token"
    created = cli_json(stack, "connections", "create", "team", "slack", "--url", url, "-p", project)
    assert "secret-token" not in json.dumps(created)  # the URL's token is never shown back

    spec = tmp_path / "nightly.yaml"
    spec.write_text(HOOKED)
    run = cli_json(stack, "run", "-f", str(spec), "-p", project)

    posted = wait_for_sync(lambda: receiver.bodies or None, timeout=60, message="Slack POST")
    [body] = posted
    assert body["text"].startswith(f"run nightly ({run['uuid']}) in {project} failed")
    facts = {f["text"].split("\n")[0]: f["text"].split("\n")[1]
             for f in body["blocks"][1]["fields"]}  # fmt: skip
    assert (facts["*Status*"], facts["*Hook*"], facts["*Trigger*"]) == ("failed", "slack", "failed")

    deliveries = cli_json(stack, "connections", "deliveries", "team", "-p", project)
    [delivery] = deliveries["deliveries"]
    assert (delivery["status"], delivery["event_type"]) == ("delivered", "hook.requested")
    assert len(receiver.bodies) == 1  # the succeeded hook did not fire
