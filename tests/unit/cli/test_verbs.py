"""One verb set in every group (ls, get, create, update, rm), the old verbs as hidden aliases,
the same options everywhere, and ``llm-models`` for the LLM price definitions."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import typer

from axonal.cli.root import COMMANDS, app

from .conftest import FakeApi, invoke

RUN = "a" * 32
#: Verbs that say what ``ls``, ``get``, ``create``, ``update`` and ``rm`` say.
SYNONYMS = {"delete", "remove", "revoke", "list", "show", "describe", "new", "add", "edit", "del"}


def commands() -> Iterator[tuple[str, typer.main.TyperCommand]]:
    """(``group sub``, command) of every command, hidden ones included."""
    root = typer.main.get_command(app)
    ctx = typer.Context(root)

    def walk(prefix: str, command: object) -> Iterator[tuple[str, typer.main.TyperCommand]]:
        children = getattr(command, "commands", None)
        if children is None:
            yield prefix, command  # type: ignore[misc]
            return
        for name, child in children.items():
            yield from walk(f"{prefix} {name}", child)

    for name in COMMANDS:
        yield from walk(name, root.get_command(ctx, name))


def test_no_group_shows_another_word_for_a_verb():
    visible = {path.split()[-1] for path, command in commands() if not command.hidden}
    assert visible.isdisjoint(SYNONYMS)
    assert {"ls", "get", "create", "rm"} <= visible


def test_the_old_verbs_are_hidden_and_only_where_they_shipped():
    hidden = sorted(path for path, command in commands() if command.hidden)
    assert hidden == [
        "alerts delete",
        "automations delete",
        "keys revoke",
        "llm-models delete",
        "ops delete",
        "webhooks delete",
    ]


def test_every_group_spells_the_shared_options_the_same():
    for path, command in commands():
        opts = {param.name: param.opts for param in command.params}
        if "project" in opts:
            assert sorted(opts["project"]) == ["--project", "-p"], path
        if "as_json" in opts:
            assert opts["as_json"] == ["--json"], path
        if "api_url" in opts:
            assert opts["api_url"] == ["--api-url"], path
        if path.endswith((" ls", " get", " rm", " create")):
            assert "as_json" in opts, f"{path} has no --json"
            assert "api_url" in opts, f"{path} has no --api-url"
            if not path.startswith(("project ", "hub ", "users ")):  # not a project's
                assert "project" in opts, f"{path} has no -p/--project"


@pytest.mark.parametrize(
    ("args", "method", "path", "body"),
    [
        (["alerts", "delete", "r1"], "DELETE", "/api/v1/acme/demo/alerts/r1", {"rules": []}),
        (
            ["automations", "delete", "a1"],
            "DELETE",
            "/api/v1/acme/demo/automations/a1",
            {"automations": []},
        ),
        (["webhooks", "delete", "w1"], "DELETE", "/api/v1/acme/demo/webhooks/w1", {"webhooks": []}),
        (
            ["keys", "revoke", "pk-ax-1"],
            "DELETE",
            "/api/v1/projects/acme/demo/api-keys/pk-ax-1",
            {"keys": []},
        ),
        (
            ["ops", "delete", RUN, "--yes"],
            "DELETE",
            f"/api/v1/acme/demo/runs/{RUN}",
            {"uuid": RUN, "action": "delete"},
        ),
    ],
)
def test_an_old_verb_still_works_as_rm(fake_api: FakeApi, args, method, path, body):
    fake_api.answer(method, path, body)
    old = invoke(*args)
    assert old.exit_code == 0, old.output
    assert f"is now `axonal {args[0]} rm`" in old.stderr
    new = invoke(args[0], "rm", *args[2:])
    assert new.exit_code == 0, new.output
    assert "is now" not in new.output
    assert fake_api.seen == [(method, path), (method, path)]
    listing = invoke(args[0], "--help")
    assert " rm " in listing.output
    assert args[1] not in listing.output.split()


def test_the_llm_price_definitions_are_llm_models_and_models_is_free(fake_api: FakeApi):
    page = {"data": [], "meta": {"page": 1, "limit": 1000, "total_items": 0, "total_pages": 0}}
    fake_api.answer("GET", "/api/v1/acme/demo/llm-models", page)
    listed = invoke("llm-models", "ls")
    assert listed.exit_code == 0, listed.output
    assert "no model definitions" in listed.output
    assert fake_api.seen == [("GET", "/api/v1/acme/demo/llm-models")]
    gone = invoke("models", "ls")
    assert gone.exit_code == 2
    assert "No such command 'models'" in gone.output
    assert "models" not in COMMANDS
