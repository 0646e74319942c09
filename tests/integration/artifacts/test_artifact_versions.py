"""Artifact versions: re-uploading changed bytes adds a version, the same bytes add none,
and every version stays downloadable over HTTP and with the CLI."""

import asyncio
import hashlib
import json

from typer.testing import CliRunner

import axonal.cli
from axonal import tracking
from axonal_testing.waiting import wait_for

from .conftest import PROJECT


async def versions_of(http, run_uuid, name, count):
    async def ready():
        reply = await http.get(
            f"/api/v1/{PROJECT}/runs/{run_uuid}/artifact-versions", params={"name": name}
        )
        found = reply.json()["artifacts"]
        return found if len(found) == count else None

    return await wait_for(ready, timeout=15, message=f"{count} versions of {name}")


async def test_changed_bytes_are_a_new_version_and_the_old_one_stays_downloadable(
    http, platform, in_run, tmp_path, monkeypatch
):
    run = platform.add_run()
    in_run(run)
    weights = tmp_path / "model.pt"
    old, new = b"old weights" * 100, b"new weights" * 100
    weights.write_bytes(old)
    first = await asyncio.to_thread(tracking.log_model, weights, "model")
    weights.write_bytes(new)
    second = await asyncio.to_thread(tracking.log_model, weights, "model")
    again = await asyncio.to_thread(tracking.log_model, weights, "model")  # the same bytes
    assert first["sha256"] == hashlib.sha256(old).hexdigest()
    assert second["sha256"] == again["sha256"] == hashlib.sha256(new).hexdigest()

    kept = await versions_of(http, run.uuid, "model", 2)
    assert [v["sha256"] for v in kept] == [second["sha256"], first["sha256"]]  # newest first
    listed = (await http.get(f"/api/v1/{PROJECT}/runs/{run.uuid}/artifacts")).json()
    assert [a["sha256"] for a in listed["artifacts"]] == [second["sha256"]]

    url = f"/api/v1/{PROJECT}/runs/{run.uuid}/artifacts/model.pt"
    assert (await http.get(url)).content == new
    assert (await http.get(url, params={"version": first["sha256"]})).content == old
    assert (await http.get(url, params={"version": second["sha256"]})).content == new
    unknown = await http.get(url, params={"version": "0" * 64})
    assert unknown.status_code == 404
    assert unknown.json()["message"].startswith("version: 'model.pt'")
    malformed = await http.get(url, params={"version": "abc"})
    assert malformed.status_code in {400, 422}
    assert "version" in malformed.text

    monkeypatch.setenv("AXONAL_API_TOKEN", "api-token-for-tests")

    def invoke(*args):
        return CliRunner().invoke(
            axonal.cli.app, ["ops", "artifacts", run.uuid, *args], env={"COLUMNS": "200"}
        )

    history = await asyncio.to_thread(invoke, "--versions", "model", "--json")
    assert history.exit_code == 0, history.output
    assert [v["sha256"] for v in json.loads(history.stdout)["artifacts"]] == [
        second["sha256"],
        first["sha256"],
    ]
    out = tmp_path / "out"
    got = await asyncio.to_thread(
        invoke, "-d", "model", "--version", first["sha256"][:10], "--to", str(out)
    )
    assert got.exit_code == 0, got.output
    assert (out / "model.pt").read_bytes() == old
