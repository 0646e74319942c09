"""The external conformance corpus: where it is, and one summary line about it.

The corpus (real polyaxonfiles from public repositories and captured Langfuse SDK requests)
lives outside the repository: ``AXONAL_CONFORMANCE_DIR``, or ``../shared/conformance``
beside the repository. A relative path is read from the repository root (pytest's rootdir).

Its tests are the ``test_external_*.py`` modules. Without the corpus they are not collected
at all, and the run ends with one line saying so; with it, they call :func:`checked` for each
external file they checked, and the run ends with the counts.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any, Literal

import pytest

__all__ = [
    "DEFAULT_LOCATION",
    "ENV_VAR",
    "checked",
    "external_corpus",
    "external_location",
    "project_fixtures",
    "pytest_configure",
    "pytest_ignore_collect",
    "pytest_terminal_summary",
    "readme_outcomes",
    "required_external_corpus",
]

ENV_VAR = "AXONAL_CONFORMANCE_DIR"
DEFAULT_LOCATION = "../shared/conformance"
EXTERNAL_MODULES = "test_external_"

Kind = Literal["polyaxonfile", "capture"]

_root: Path | None = None
_checked: dict[Kind, set[str]] = {"polyaxonfile": set(), "capture": set()}
#: Under pytest-xdist, a worker's output to its controller, which prints the summary.
_worker_output: dict[str, Any] | None = None
_OUTPUT_KEY = "axonal_conformance_checked"


def repository_root() -> Path:
    """The repository root: pytest's rootdir once configured, else the working directory."""
    return _root if _root is not None else Path.cwd()


def external_location() -> str:
    """The corpus location as configured (``AXONAL_CONFORMANCE_DIR`` or the default)."""
    return os.environ.get(ENV_VAR) or DEFAULT_LOCATION


def external_corpus() -> Path | None:
    """The corpus folder, or ``None`` when it is not there."""
    folder = repository_root() / external_location()
    return folder.resolve() if folder.is_dir() else None


def required_external_corpus() -> Path:
    """The corpus folder, for the external modules (collected only when it is there)."""
    folder = external_corpus()
    if folder is None:
        raise FileNotFoundError(
            f"external conformance corpus not found at {external_location()} (set {ENV_VAR})"
        )
    return folder


def project_fixtures() -> Path:
    """The project's own fixtures (``tests/fixtures``), which the default suite reads."""
    return repository_root() / "tests" / "fixtures"


def readme_outcomes(readme: Path) -> dict[str, str]:
    """``file -> expected outcome`` from a README table whose rows start with a number.

    The file is the second cell (in backquotes), the outcome the last one: the layout of the
    corpus README and of ``tests/fixtures/README.md``.
    """
    rows = {}
    for line in readme.read_text().splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) >= 4 and re.fullmatch(r"\d+", cells[0]):
            rows[cells[1].strip("`")] = cells[-1]
    return rows


def checked(kind: Kind, name: str) -> None:
    """Count one external file as checked (for the summary line)."""
    _checked[kind].add(name)
    if _worker_output is not None:
        _worker_output[_OUTPUT_KEY] = {k: sorted(names) for k, names in _checked.items()}


def pytest_configure(config: pytest.Config) -> None:
    global _root, _worker_output  # noqa: PLW0603 - set once per session, read by the tests
    _root = config.rootpath
    _worker_output = getattr(config, "workeroutput", None)
    for names in _checked.values():
        names.clear()


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node: Any, error: object) -> None:
    """An xdist worker ended: count what it checked."""
    found: dict[Kind, list[str]] = getattr(node, "workeroutput", {}).get(_OUTPUT_KEY, {})
    for kind, names in found.items():
        _checked[kind].update(names)


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    """Leave the external modules out when the corpus is absent (nothing to collect)."""
    if collection_path.name.startswith(EXTERNAL_MODULES) and external_corpus() is None:
        return True
    return None


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    location = external_location()
    if external_corpus() is None:
        terminalreporter.write_line(
            f"external conformance corpus not found at {location} (set {ENV_VAR}): skipped"
        )
        return
    files = len(_checked["polyaxonfile"])
    captures = len(_checked["capture"])
    terminalreporter.write_line(
        f"external conformance corpus at {location}: "
        f"{files} polyaxonfiles, {captures} Langfuse captures checked"
    )
