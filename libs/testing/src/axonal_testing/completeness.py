"""Every collected test reports, or the run fails saying how many never ran.

Under ``pytest-xdist`` a worker that is killed or interrupted can end a run early without a
failure of its own: the tests it still held would pass unseen. The controller (or a plain
``pytest`` process) counts the tests that reported and compares with the collection.
"""

from __future__ import annotations

import pytest

__all__ = [
    "pytest_runtest_logreport",
    "pytest_sessionfinish",
    "pytest_xdist_node_collection_finished",
]

_collected: dict[str, int] = {}
_reported: set[str] = set()


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if report.when == "call" or not report.passed:  # a failed or skipped setup reports too
        _reported.add(report.nodeid)


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_node_collection_finished(node: object, ids: list[str]) -> None:
    _collected["xdist"] = len(ids)  # every worker collects the same tests


@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    if (
        hasattr(session.config, "workerinput")
        or exitstatus != pytest.ExitCode.OK
        or session.config.option.collectonly
    ):
        return  # a worker (its controller counts), a run that already failed, or no run
    expected = _collected.get("xdist", session.testscollected)
    missing = expected - len(_reported)
    if missing > 0:
        reporter = session.config.pluginmanager.get_plugin("terminalreporter")
        if reporter is not None:
            reporter.write_line(
                f"{missing} of {expected} collected tests never reported: a test worker "
                "ended early (killed or interrupted)",
                red=True,
            )
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
