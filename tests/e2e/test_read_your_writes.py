"""Read your own writes: once a submit or an action has answered, reads see it."""

from __future__ import annotations

import pytest

from .lifecycle_support import User, job

pytestmark = pytest.mark.slow  # real processes on the embedded stack

FANOUT = 200


def fanout(ops: int) -> str:
    lines = [
        "version: 1.1",
        "kind: component",
        "run:",
        "  kind: dag",
        "  components:",
        # each op outlasts the test, so the DAG is still running when it is stopped however
        # slow the machine makes the reads in between
        "  - name: noop",
        "    run: {kind: job, container: {image: busybox, command: ['sleep', '60']}}",
        "  operations:",
    ]
    lines += [f"  - {{name: op{i}, dagRef: noop}}" for i in range(ops)]
    return "\n".join(lines) + "\n"


def test_a_large_dag_is_found_as_soon_as_its_submit_answers(user: User) -> None:
    created = user.http.post(user.base, json={"content": fanout(FANOUT)})
    assert created.status_code == 202, created.text
    uuid = created.json()["uuid"]
    found = user.http.get(f"{user.base}/{uuid}")  # at once: never "not found" after a submit
    assert found.status_code == 200, found.text
    assert user.cli_json("ops", "get", uuid)["uuid"] == uuid
    assert user.statuses(uuid)[0] == "created"
    assert len(user.children(uuid)) == 100  # its operations exist too (one page of them)
    user.cli_json("ops", "stop", uuid)
    assert user.get(uuid)["status"] in {"stopping", "stopped"}
    assert user.wait_done(uuid, timeout=120)["status"] == "stopped"


def test_a_stop_is_seen_by_the_next_read(user: User) -> None:
    uuid = user.run(job(["sleep", "60"]))
    user.wait_status(uuid, "running")
    user.cli_json("ops", "stop", uuid)
    assert user.get(uuid)["status"] in {"stopping", "stopped"}
    assert user.wait_done(uuid)["status"] == "stopped"
