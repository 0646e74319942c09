"""The model registry end to end on the embedded stack: a job reads a dataset and logs a
model with ``register_as``; promoting the version to ``production`` POSTs a signed webhook
and starts the operation an automation rule names; lineage links the dataset version, the
run and the model version."""

from __future__ import annotations

import hashlib
import json
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from standardwebhooks import Webhook

from axonal_testing.receiver import Receiver, receiving
from axonal_testing.stack import RunningStack
from axonal_testing.waiting import wait_for_sync

pytestmark = pytest.mark.slow  # real processes on the embedded stack

TRAIN_SCRIPT = """
from pathlib import Path
from axonal import tracking

Path("train.csv").write_text("x,y\\n1,0\\n2,1\\n")
tracking.log_inputs(train=tracking.Dataset("train.csv"), epochs=3)
tracking.log_metrics(auc=0.91)
tracking.flush()
Path("model.pkl").write_bytes(b"churn weights v1")
made = tracking.log_model("model.pkl", "model", register_as="churn")
print("registered version", made["model_version"]["version"], flush=True)
"""

TRAIN = f"""
version: 1.1
kind: component
name: train-churn
run:
  kind: job
  init:
    - file:
        filename: train.py
        content: {json.dumps(TRAIN_SCRIPT)}
  container:
    image: python
    workingDir: "{{{{ globals.artifacts_path }}}}"
    command: [{json.dumps(sys.executable)}, train.py]
"""

DEPLOY = f"""
version: 1.1
kind: component
name: deploy
inputs:
- {{name: model, type: str}}
- {{name: version, type: int}}
run:
  kind: job
  container:
    image: python
    command:
    - {json.dumps(sys.executable)}
    - -c
    - "print('deploying {{{{ model }}}} v{{{{ version }}}}')"
"""


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    with receiving() as server:
        yield server


def test_promoting_a_registered_version_notifies_starts_a_deploy_and_has_lineage(
    stack: RunningStack, receiver: Receiver, tmp_path: Path
) -> None:
    project = f"e2e/models-{uuid.uuid4().hex[:8]}"
    hook = stack.cli_json(
        "webhooks", "create", receiver.url(),
        "-e", "model.version.promoted", "-p", project,
    )  # fmt: skip
    deploy = tmp_path / "deploy.yaml"
    deploy.write_text(DEPLOY)
    rule = stack.cli_json(
        "automations", "create", "deploy", "--on", "model.version.promoted",
        "--where", "data.alias=production", "-f", str(deploy),
        "--param-from", "model=data.model", "--param-from", "version=data.version",
        "-p", project,
    )  # fmt: skip
    train = tmp_path / "train.yaml"
    train.write_text(TRAIN)
    done = stack.cli("run", "-f", str(train), "-p", project, "--watch", timeout=180)
    assert done.returncode == 0, done.stdout + done.stderr
    [run] = stack.cli_json("ops", "ls", "-p", project)["runs"]
    assert run["status"] == "succeeded"

    [version] = stack.cli_json("registry", "models", "versions", "churn", "-p", project)["versions"]
    assert (version["version"], version["run_uuid"]) == (1, run["uuid"])
    assert version["sha256"] == hashlib.sha256(b"churn weights v1").hexdigest()

    promoted = stack.cli_json(
        "registry", "models", "promote", "churn", "1", "--alias", "production",
        "-p", project,
    )  # fmt: skip
    assert (promoted["status"], promoted["version"]["aliases"]) == ("moved", ["production"])

    _approve_and_archive(stack, project)

    posts = wait_for_sync(
        lambda: receiver.posts if len(receiver.posts) >= 2 else None,
        timeout=60,
        message="two webhook POSTs: production, then staging once approved",
    )
    verifier = Webhook(hook["secret"])
    events = [verifier.verify(body, {k.lower(): v for k, v in h.items()}) for h, body in posts]
    assert {e["type"] for e in events} == {"axonal.model.version.promoted"}
    assert sorted((e["data"]["model"], e["data"]["alias"]) for e in events) == [
        ("churn", "production"),
        ("churn", "staging"),
    ]

    def fired() -> dict[str, Any] | None:
        found = stack.cli_json("automations", "firings", rule["id"], "-p", project)
        return found["firings"][0] if found["firings"] else None

    firing = wait_for_sync(fired, timeout=60, message="the deploy rule fired")
    assert firing["outcome"] == "started", firing
    with stack.http(timeout=10) as http:

        def deployed() -> dict[str, Any] | None:
            reply = http.get(f"/api/v1/{project}/runs/{firing['run_uuid']}")
            found = reply.json() if reply.status_code == 200 else None
            return found if found and found["status"] in ("succeeded", "failed") else None

        deploy_run = wait_for_sync(deployed, timeout=90, message="the deploy run is done")
        assert deploy_run["status"] == "succeeded"
        assert deploy_run["inputs"] == {"model": "churn", "version": 1}

        def linked() -> dict[str, Any] | None:
            reply = http.get(f"/api/v1/{project}/models/churn/versions/1/lineage")
            graph = reply.json() if reply.status_code == 200 else None
            return graph if graph and len(graph["edges"]) >= 2 else None

        graph = wait_for_sync(linked, timeout=30, message="the lineage graph")
        refusals = _refusals(http, f"/api/v1/{project}/models/churn", run["uuid"])
    expected = [
        (404, "alias: no version of 'churn' holds alias 'champion'"),
        (400, "alias: 'Prod!' must be 1 to 50 lowercase letters"),
        (404, "version: model 'churn' has no version 7"),
        (409, "sha256: model 'churn' already has these bytes"),
        (404, "sha256: no artifact bytes"),
    ]
    for (status, message), (want_status, want_start) in zip(refusals, expected, strict=True):
        assert (status, message[: len(want_start)]) == (want_status, want_start), message
    data_sha = hashlib.sha256(b"x,y\n1,0\n2,1\n").hexdigest()
    dataset, run_node = f"dataset:train.csv@{data_sha}", f"run:{run['uuid']}"
    assert {(e["source"], e["target"], e["relation"]) for e in graph["edges"]} == {
        (dataset, run_node, "read"),
        (run_node, "model:churn/1", "registered"),
    }
    nodes = {node["id"]: node for node in graph["nodes"]}
    attributes = nodes[run_node]["attributes"]
    assert attributes["params"]["train"] == {"dataset": "train.csv", "sha256": data_sha}
    assert attributes["params"]["epochs"] == 3
    assert attributes["metrics"]["auc"] == pytest.approx(0.91)


def _approve_and_archive(stack: RunningStack, project: str) -> None:
    """A protected alias waits for approval; archiving takes a version's aliases."""
    on = ("-p", project)
    stack.cli_json("registry", "models", "protect", "churn", "staging", *on)
    asked = stack.cli_json("registry", "models", "promote", "churn", "1", "-a", "staging", *on)
    assert (asked["status"], asked["version"]["aliases"]) == ("pending", ["production"])
    [pending] = stack.cli_json("registry", "models", "requests", "churn", *on)["requests"]
    assert pending["id"] == asked["request"]["id"]
    approved = stack.cli_json("registry", "models", "approve", "churn", pending["id"], *on)
    assert approved["version"]["aliases"] == ["production", "staging"]
    archived = stack.cli_json("registry", "models", "archive", "churn", "1", *on)
    assert (archived["archived"], archived["aliases"]) == (True, [])
    model = stack.cli_json("registry", "models", "get", "churn", *on)
    assert (model["aliases"], model["protected_aliases"]) == ({}, ["staging"])


def _refusals(http: httpx.Client, model: str, run_uuid: str) -> list[tuple[int, str]]:
    """Status and message start of bad requests: an unknown alias, a bad alias, a version
    that does not exist, the same bytes again, bytes never uploaded."""
    replies = [
        http.get(f"{model}/versions/champion"),
        http.post(f"{model}/versions/1/promote", json={"alias": "Prod!"}),
        http.post(f"{model}/versions/7/promote", json={"alias": "production"}),
        http.post(f"{model}/versions", json={"run_uuid": run_uuid, "artifact": "model"}),
        http.post(
            f"{model}/versions",
            json={"run_uuid": run_uuid, "artifact": "model", "sha256": "0" * 64},
        ),
    ]
    return [(reply.status_code, reply.json()["message"]) for reply in replies]
