"""``axonal traces ls`` and ``get`` against the stack, as JSON and as a table and a tree."""

from __future__ import annotations

import json

from typer.testing import CliRunner

import axonal.cli

from .conftest import PROJECT, TracedProject


def cli(traced: TracedProject, *args: str):
    result = CliRunner().invoke(
        axonal.cli.app,
        ["traces", *args, "-p", PROJECT, "--api-url", traced.api_url],
        env={"COLUMNS": "250", "AXONAL_API_TOKEN": traced.stack.admin_token},
    )
    assert result.exit_code == 0, result.output
    return result.output


def test_ls_lists_the_trace_with_its_totals(traced: TracedProject, sdk_trace):
    trace_id = sdk_trace["trace_id"]
    found = json.loads(cli(traced, "ls", "--user", "user-1", "--tag", "sdk", "--json"))
    [row] = [t for t in found["data"] if t["id"] == trace_id]
    assert (row["name"], row["user_id"], row["session_id"]) == ("plan", "user-1", "sess-1")
    assert len(row["observation_ids"]) == 6
    assert row["total_tokens"] == 1100
    assert row["total_cost"] > 0
    assert json.loads(cli(traced, "ls", "--session", "nobody", "--json"))["data"] == []

    table = cli(traced, "ls", "--name", "plan", "--limit", "5")
    line = next(line for line in table.splitlines() if trace_id in line)
    for cell in ("plan", "user-1", "sess-1", "1100", "$0.000"):
        assert cell in line
    assert "no traces" in cli(traced, "ls", "--user", "nobody")


def test_get_shows_the_observation_tree_and_the_scores(traced: TracedProject, sdk_trace):
    trace_id = sdk_trace["trace_id"]
    detail = json.loads(cli(traced, "get", trace_id, "--json"))
    assert detail["trace"]["id"] == trace_id
    assert {o["name"] for o in detail["observations"]} >= {"plan", "llm", "lookup"}
    assert {s["name"] for s in detail["scores"]} == {"correctness", "helpful"}

    tree = cli(traced, "get", trace_id).splitlines()
    plan = next(i for i, line in enumerate(tree) if "AGENT plan" in line)
    llm = next(line for line in tree if "GENERATION llm" in line)
    assert "model=gpt-4o-mini" in llm
    assert "tokens=1100" in llm
    assert "$0.000" in llm
    assert llm.index("GENERATION") > tree[plan].index("AGENT")  # nested one level deeper
    assert any("ERROR tool timed out" in line for line in tree)
    assert any("correctness = 0.9" in line for line in tree)
    assert "user_id=user-1 session_id=sess-1" in "\n".join(tree)


def test_an_unknown_project_is_a_clear_error(traced: TracedProject):
    result = CliRunner().invoke(
        axonal.cli.app,
        ["traces", "ls", "-p", "nobody/nothing", "--api-url", traced.api_url],
        env={"AXONAL_API_TOKEN": traced.stack.admin_token},
    )
    assert result.exit_code == 1
    assert "not found" in result.output
