"""What the SDK checks before any upload, and directories packed reproducibly."""

import io
import os
import tarfile

import pytest

from axonal import _artifacts, tracking


def packed(folder) -> bytes:
    out = io.BytesIO()
    _artifacts._pack(folder, out)
    return out.getvalue()


def test_a_directory_packs_to_the_same_bytes_whatever_its_times(tmp_path):
    folder = tmp_path / "data"
    (folder / "sub").mkdir(parents=True)
    (folder / "sub" / "b.txt").write_text("b")
    (folder / "a.txt").write_text("a")
    first = packed(folder)
    os.utime(folder / "a.txt", (1, 1))
    assert packed(folder) == first
    with tarfile.open(fileobj=io.BytesIO(first)) as tar:
        assert tar.getnames() == ["a.txt", "sub", "sub/b.txt"]
        assert {member.mtime for member in tar.getmembers()} == {0}


@pytest.mark.parametrize(
    ("filename", "name"),
    [("model.pt", "model.pt"), ("my model (1).pt", "my_model__1_.pt"), (".env", "env")],
)
def test_names_come_from_file_names(filename, name):
    assert _artifacts._name_from(filename) == name


@pytest.mark.parametrize("name", ["", "/abs", "-x", "a b", "x" * 201])
def test_bad_names_are_refused_before_anything_is_sent(name):
    with pytest.raises(ValueError, match="bad artifact name"):
        tracking.log_text(name, "text")


def test_bad_steps_kinds_and_summaries_are_refused(tmp_path):
    with pytest.raises(ValueError, match="step"):
        tracking.log_text("notes", "text", step=-1)
    (tmp_path / "f").write_text("x")
    with pytest.raises(ValueError, match="kind must be one of"):
        tracking.log_artifact(tmp_path / "f", kind="movie")
    with pytest.raises(ValueError, match="JSON"):
        tracking.log_artifact(tmp_path / "f", summary={"x": object()})
    with pytest.raises(FileNotFoundError):
        tracking.log_artifact(tmp_path / "missing")


def test_outside_a_run_artifacts_say_so(monkeypatch):
    for name in ("AXONAL_RUN_UUID", "AXONAL_API_URL"):
        monkeypatch.delenv(name, raising=False)
    with pytest.raises(tracking.NotInRunError, match="AXONAL_API_URL"):
        tracking.log_text("notes", "text")
