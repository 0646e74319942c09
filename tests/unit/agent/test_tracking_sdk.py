"""``axonal.tracking.log_outputs``: merged, atomic, and only inside a run."""

import errno
import json
import subprocess
import sys
import tempfile

import pytest

from axonal import tracking


def test_log_outputs_merges_values(tmp_path, monkeypatch):
    target = tmp_path / "outputs.json"
    monkeypatch.setenv("AXONAL_RUN_OUTPUTS_FILE", str(target))
    tracking.log_outputs(loss=0.5, epochs=3)
    assert tracking.log_outputs(loss=0.25) == {"loss": 0.25, "epochs": 3}
    assert json.loads(target.read_text()) == {"loss": 0.25, "epochs": 3}
    assert [p.name for p in tmp_path.iterdir()] == ["outputs.json"]  # no temp file left


def test_a_value_that_is_not_json_leaves_the_file_as_it_was(tmp_path, monkeypatch):
    target = tmp_path / "outputs.json"
    monkeypatch.setenv("AXONAL_RUN_OUTPUTS_FILE", str(target))
    tracking.log_outputs(a=1)
    with pytest.raises(TypeError):
        tracking.log_outputs(b=object())
    assert json.loads(target.read_text()) == {"a": 1}


def test_a_file_that_cannot_be_replaced_is_rewritten_in_place(tmp_path, monkeypatch):
    """Kubernetes' termination log is a mount point, in a folder a run may not write."""
    target = tmp_path / "termination-log"
    target.write_text("")
    monkeypatch.setenv("AXONAL_RUN_OUTPUTS_FILE", str(target))

    def busy(*args, **kwargs):
        raise OSError(errno.EBUSY, "Device or resource busy")

    monkeypatch.setattr(tempfile, "mkstemp", busy)
    tracking.log_outputs(loss=0.5)
    assert tracking.log_outputs(epochs=3) == {"loss": 0.5, "epochs": 3}
    assert json.loads(target.read_text()) == {"loss": 0.5, "epochs": 3}


def test_outside_a_run_is_a_clear_error(monkeypatch):
    monkeypatch.delenv("AXONAL_RUN_OUTPUTS_FILE", raising=False)
    with pytest.raises(tracking.NotInRunError, match="not inside an Axonal run"):
        tracking.log_outputs(a=1)


def test_import_is_light():
    heavy = "('pydantic', 'nats', 'httpx', 'axonal_events')"
    code = f"import sys, axonal.tracking; print(sorted(m for m in {heavy} if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
