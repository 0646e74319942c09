"""Every SDK call uploads through the real api and is listed by the real tracking service."""

import asyncio
import io
import os
import subprocess
import sys
import tarfile
import time

import pytest

from axonal import tracking
from axonal_stack.ports import free_port

from .conftest import PROJECT, listed


class Pixels:
    """What a numpy array offers the SDK."""

    def __init__(self, rows):
        self.rows = rows

    def tolist(self):
        return self.rows


async def test_every_call_is_listed_with_its_kind_and_summary(http, platform, in_run, tmp_path):
    run = platform.add_run()
    in_run(run)
    weights = tmp_path / "weights.bin"
    weights.write_bytes(os.urandom(50_000))
    folder = tmp_path / "data"
    (folder / "nested").mkdir(parents=True)
    (folder / "a.txt").write_text("a")
    (folder / "nested" / "b.txt").write_text("b")
    calls = [
        lambda: tracking.log_artifact(weights),
        lambda: tracking.log_artifact(folder),
        lambda: tracking.log_model(weights, "model", framework="torch"),
        lambda: tracking.log_text("notes", "hello", step=1),
        lambda: tracking.log_image("sample", Pixels([[[255, 0, 0], [0, 255, 0]]]), step=2),
        lambda: tracking.log_dataframe("table", [{"a": 1}, {"a": 2, "b": 3}]),
        lambda: tracking.log_histogram("weights", [1, 2, 2, 3], bins=2, step=5),
        lambda: tracking.log_curve("roc", [0, 0.5, 1], [0, 0.8, 1], annotation="AUC=0.65"),
        lambda: tracking.log_confusion_matrix("cm", ["a", "b"], ["a", "b"], [[3, 1], [0, 4]]),
    ]
    replies = [await asyncio.to_thread(call) for call in calls]
    assert all(reply and reply["run_uuid"] == run.uuid for reply in replies), replies
    found = {a["name"]: a for a in await listed(http, run.uuid, len(calls))}
    kinds = {name: a["kind"] for name, a in found.items()}
    assert kinds == {
        "weights.bin": "file", "data": "dir", "model": "model", "notes": "text",
        "sample": "image", "table": "dataframe", "weights": "histogram", "roc": "curve",
        "cm": "confusion",
    }  # fmt: skip
    assert found["model"]["summary"] == {"framework": "torch"}
    assert found["notes"]["step"] == 1
    assert found["sample"]["summary"] == {"format": "png", "width": 2, "height": 1}
    assert found["table"]["summary"] == {"rows": 2, "columns": ["a", "b"]}
    assert found["weights"]["summary"]["counts"] == [1, 3]
    assert found["roc"]["summary"]["annotation"] == "AUC=0.65"
    assert found["cm"]["summary"]["z"] == [[3, 1], [0, 4]]
    assert found["weights.bin"]["size"] == 50_000

    base = f"/api/v1/{PROJECT}/runs/{run.uuid}/artifacts"
    downloaded = await http.get(f"{base}/weights.bin")
    assert downloaded.status_code == 200
    assert downloaded.content == weights.read_bytes()
    packed = (await http.get(f"{base}/data.tar.gz")).content
    with tarfile.open(fileobj=io.BytesIO(packed)) as tar:
        assert sorted(tar.getnames()) == ["a.txt", "nested", "nested/b.txt"]
    missing = await http.get(f"{base}/nothing.bin")
    assert missing.status_code == 404
    assert "nothing.bin" in missing.json()["message"]


async def test_a_reupload_replaces_its_record(http, platform, in_run):
    run = platform.add_run()
    in_run(run)
    for text in ("first", "first", "second"):
        await asyncio.to_thread(tracking.log_text, "notes", text)
    await asyncio.to_thread(tracking.log_text, "notes", "at step 1", 1)

    async def settled():
        found = await listed(http, run.uuid, 2)
        return found if found[0]["size"] == len("second") else None

    unstepped, stepped = await settled()
    assert (unstepped["step"], stepped["step"]) == (None, 1)
    reply = await http.get(f"/api/v1/{PROJECT}/runs/{run.uuid}/artifacts/text/notes.txt")
    assert reply.text == "second"


async def test_an_explicit_upload_that_fails_raises(platform, in_run, tmp_path, monkeypatch):
    in_run(platform.add_run())
    big = tmp_path / "big.bin"
    big.write_bytes(b"x" * 300_000)
    with pytest.raises(tracking.ArtifactUploadError, match="413"):
        await asyncio.to_thread(tracking.log_artifact, big)
    monkeypatch.setenv("AXONAL_API_URL", f"http://127.0.0.1:{free_port()}")
    with pytest.raises(tracking.ArtifactUploadError, match="cannot reach"):
        await asyncio.to_thread(tracking.log_artifact, big)


def _python(code: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60,
        check=False,
    )  # fmt: skip


async def test_a_typed_artifact_is_spooled_while_the_api_is_down_then_delivered(
    http, platform, in_run, tmp_path
):
    run = platform.add_run()
    in_run(run)
    down = {**os.environ, "AXONAL_API_URL": f"http://127.0.0.1:{free_port()}"}
    code = "from axonal import tracking; print(tracking.log_text('{0}', '{0} text'))"
    started = time.monotonic()
    first = await asyncio.to_thread(_python, code.format("early"), down)
    assert time.monotonic() - started < 20
    assert first.returncode == 0, first.stderr
    assert first.stdout.strip() == "None"
    assert "unreachable" in first.stderr
    assert "1 artifacts are not delivered yet" in first.stderr
    assert len(list((tmp_path / "spool").glob("*.artifacts/*.json"))) == 1

    second = await asyncio.to_thread(_python, code.format("later"), dict(os.environ))
    assert second.returncode == 0, second.stderr
    assert run.uuid in second.stdout
    found = await listed(http, run.uuid, 2)
    assert {a["name"] for a in found} == {"early", "later"}
    assert not list((tmp_path / "spool").glob("*.artifacts/*.json"))
