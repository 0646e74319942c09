"""The root of the command line: groups imported on use, plugins, what starting up imports."""

from __future__ import annotations

import importlib.metadata
import subprocess
import sys
from pathlib import Path

import pytest
import typer

from axonal.cli import plugins
from axonal.cli.root import COMMANDS, app

from .conftest import invoke

#: Run the command line as the console script does, then list every module it imported.
PROBE = """
import sys
from axonal.cli import main
sys.argv = ["axonal", *sys.argv[1:]]
try:
    main()
except SystemExit:
    pass
print("\\n".join(sorted(sys.modules)), file=sys.stderr)
"""
#: What neither ``--help`` nor ``version`` needs: tables, HTTP, models, the stack, NATS.
HEAVY = (
    "rich",
    "httpx",
    "pydantic",
    "axonal_events",
    "axonal_spec",
    "axonal_stack.control",
    "axonal_stack.settings",
    "nats",
    "yaml",
    "importlib.metadata",
)


def imported(*args: str) -> tuple[str, set[str]]:
    """The output of ``axonal ARGS`` in a new interpreter and the modules it imported."""
    done = subprocess.run(
        [sys.executable, "-c", PROBE, *args], capture_output=True, text=True, check=True
    )
    return done.stdout, set(done.stderr.split())


def heavy(modules: set[str]) -> list[str]:
    return sorted(m for m in modules if any(m == h or m.startswith(f"{h}.") for h in HEAVY))


def test_help_lists_every_group_and_imports_none_of_them():
    output, modules = imported("--help")
    for name, lazy in COMMANDS.items():
        assert name in output
        assert lazy.help in output
        assert lazy.module not in modules
    for command in ("up", "down", "status", "version"):
        assert f"  {command} " in output
    assert heavy(modules) == []
    assert "axonal_stack.cli" in modules  # the plugin names its commands, importing only typer


def test_version_imports_nothing_heavy_and_no_plugin():
    output, modules = imported("version")
    assert output.splitlines()[0] == f"axonal {importlib.metadata.version('axonal')}"
    assert "plugin stack: axonal-stack" in output
    assert heavy(modules) == []
    assert not any(m.startswith("axonal_stack") for m in modules)


def test_a_group_imports_its_module_only():
    output, modules = imported("alerts", "--help")
    assert "Metric alert rules" in output
    assert "axonal.cli.alerts" in modules
    assert "rich.table" in modules  # the probe sees what a command imports
    others = {lazy.module for name, lazy in COMMANDS.items() if name != "alerts"}
    assert others.isdisjoint(modules)
    assert not any(m.startswith("axonal_stack") for m in modules)


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_the_help_written_in_the_root_is_the_groups_own(name: str):
    group = typer.main.get_command(app)
    command = group.get_command(typer.Context(group), name)
    assert command is not None
    assert (command.help or "").strip().splitlines()[0] == COMMANDS[name].help


def test_no_arguments_print_the_help():
    result = invoke()
    assert result.exit_code == 2
    assert "Usage: axonal" in result.output
    assert "llm-models" in result.output


def test_a_typo_suggests_the_command():
    result = invoke("alert", "ls")
    assert result.exit_code == 2
    assert "Did you mean 'alerts'?" in result.output


def test_a_broken_plugin_is_reported_and_the_other_commands_work(monkeypatch):
    dist = plugins.Distribution("broken-dist", "1.0", Path(__file__))
    broken = plugins.EntryPoint("broken", "no_such_module_at_all:register", "axonal.cli", dist)
    monkeypatch.setattr(plugins, "entry_points", lambda group: [broken])
    result = invoke("--help")
    assert result.exit_code == 0, result.output
    assert "the broken plugin (no_such_module_at_all:register) failed to load" in result.output
    assert "alerts" in result.output
    assert "(needs axonal-stack)" in result.output
    version = invoke("version")
    assert version.exit_code == 0
    assert "plugin broken: broken-dist 1.0" in version.output


def test_without_the_stack_up_says_how_to_install_it(monkeypatch):
    monkeypatch.setattr(plugins, "entry_points", lambda group: [])
    result = invoke("up", "--detach")
    assert result.exit_code == 1
    assert "pip install axonal-stack" in result.output
    assert "needs the embedded stack" in result.output


def test_entry_points_and_versions_are_read_as_importlib_metadata_reads_them():
    for group in ("console_scripts", plugins.PLUGIN_GROUP):
        expected = sorted(
            (ep.name, ep.value) for ep in importlib.metadata.entry_points(group=group)
        )
        assert sorted((ep.name, ep.value) for ep in plugins.entry_points(group)) == expected
    for name in ("axonal", "axonal-stack", "typer", "rich"):
        assert plugins.version_of(name) == importlib.metadata.version(name)
    assert plugins.version_of("no-such-distribution") == "unknown"
