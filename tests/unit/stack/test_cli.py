"""The ``axonal`` command line: plugin loading and what it says without the stack."""

import subprocess
import sys

import pytest
import typer
from typer.testing import CliRunner

import axonal.cli


def test_without_the_stack_plugin_up_says_what_to_install(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(axonal.cli, "entry_points", lambda group: [])
    app = typer.Typer()
    assert axonal.cli.load_plugins(app) == []
    result = CliRunner().invoke(app, ["up", "--detach"])
    assert result.exit_code == 1
    assert "install" in result.output
    assert "axonal-stack" in result.output


def test_the_stack_plugin_adds_its_commands():
    app = typer.Typer()
    assert "stack" in axonal.cli.load_plugins(app)
    result = CliRunner().invoke(app, ["--help"])
    for command in ("up", "down", "status"):
        assert command in result.output
    assert "needs axonal-stack" not in result.output


def test_python_dash_m_axonal_and_cheap_import():
    result = subprocess.run(
        [sys.executable, "-m", "axonal", "version"], capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stderr
    assert "axonal 0.1.0" in result.stdout
    probe = "import sys, axonal; print('typer' in sys.modules, 'rich' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "False"]
