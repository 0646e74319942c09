"""Planning init steps into local actions."""

from pathlib import Path

import pytest

from axonal_agent.domain.command import InvalidRunError
from axonal_agent.domain.init_steps import (
    CopyStep,
    FileStep,
    GitStep,
    SkippedStep,
    parse_chmod,
    plan_init,
)

FOLDER = Path("/runs/r/1")
SOURCES = Path("/artifacts")


def test_file_git_artifacts_and_paths():
    run = {
        "init": [
            {"file": {"content": "x", "filename": "run.sh", "chmod": "+x"}},
            {"file": {"content": "y", "filename": "cfg.json"}, "path": "conf"},
            {"git": {"url": "https://github.com/acme/repo.git", "revision": "main"}},
            {"git": {"url": "/src/lib"}, "path": "code"},
            {"artifacts": {"files": ["data/a.csv"], "dirs": [["/abs/models", "m"]]}},
            {"paths": ["/etc/hosts"], "path": "extra"},
        ]
    }
    assert plan_init(run, FOLDER, SOURCES) == [
        FileStep(FOLDER / "run.sh", "x", "+x"),
        FileStep(FOLDER / "conf" / "cfg.json", "y", None),
        GitStep("https://github.com/acme/repo.git", FOLDER / "repo", "main", ()),
        GitStep("/src/lib", FOLDER / "code", None, ()),
        CopyStep(SOURCES / "data/a.csv", FOLDER / "a.csv"),
        CopyStep(Path("/abs/models"), FOLDER / "m"),
        CopyStep(Path("/etc/hosts"), FOLDER / "extra" / "hosts"),
    ]


def test_unsupported_kinds_are_skipped_with_a_reason():
    run = {
        "init": [
            {"dockerfile": {"image": "python"}},
            {"git": {"revision": "x"}, "connection": "repo"},
        ]
    }
    steps = plan_init(run, FOLDER, SOURCES)
    assert [type(s) for s in steps] == [SkippedStep, SkippedStep]
    assert steps[0].kind == "dockerfile"


def test_paths_may_not_leave_the_run_folder():
    with pytest.raises(InvalidRunError, match="leaves the run folder"):
        plan_init({"init": [{"file": {"content": "x", "filename": "../evil"}}]}, FOLDER, SOURCES)


def test_no_init_is_no_step():
    assert plan_init({}, FOLDER, SOURCES) == []


@pytest.mark.parametrize(
    ("mode", "current", "expected"),
    [("+x", 0o644, 0o755), ("755", 0o600, 0o755), ("0o700", 0o644, 0o700), ("-w", 0o644, 0o444)],
)
def test_parse_chmod(mode, current, expected):
    assert parse_chmod(mode, current) == expected


def test_bad_chmod():
    with pytest.raises(InvalidRunError):
        parse_chmod("rwx", 0o644)
