"""Rich rendering of the stack summary and the services table."""

from datetime import UTC, datetime

import pytest
from rich.console import Console

from axonal_stack.health import ServiceHealth, StackStatus
from axonal_stack.summary import format_uptime, stack_summary


def render(status: StackStatus) -> str:
    console = Console(record=True, width=160, color_system=None)
    console.print(stack_summary(status))
    return console.export_text()


def status(*services: ServiceHealth, running: bool = True) -> StackStatus:
    return StackStatus(
        running=running,
        healthy=running and all(s.healthy for s in services),
        phase="running" if running else "stopped",
        home="/srv/axonal-home",
        nats_url="nats://127.0.0.1:4222",
        database_url="postgresql://postgres@127.0.0.1:54320/axonal",
        api_url="http://127.0.0.1:8000" if running else None,
        ui_url="http://127.0.0.1:8000/" if running else None,
        services=list(services),
    )


OK = ServiceHealth(
    service="identity",
    status="ok",
    instance="host:4242",
    version="0.1.0",
    started_at=datetime(2026, 1, 1, tzinfo=UTC),
    uptime_seconds=125,
    checks={"database": "ok"},
    restarts=1,
)


def test_healthy_summary_shows_where_everything_is():
    text = render(status(OK))
    assert "Axonal is up: 1/1 services healthy" in text
    for expected in (
        "nats://127.0.0.1:4222",
        "postgresql://postgres@127.0.0.1:54320/axonal",
        "/srv/axonal-home/logs",
        "/srv/axonal-home/artifacts",
        "host:4242",
        "0.1.0",
        "2m 05s",
        "database: ok",
    ):
        assert expected in text
    row = next(line for line in text.splitlines() if "identity" in line)
    assert row.split()[1:3] == ["identity", "ok"]


def test_the_ui_is_the_first_address():
    rows = [line.strip("│ ").split() for line in render(status(OK)).splitlines()[1:]]
    assert rows[0] == ["UI", "http://127.0.0.1:8000/"]
    assert ["API", "http://127.0.0.1:8000"] in rows


def test_without_an_api_there_is_no_ui():
    rows = [line.strip("│ ").split() for line in render(status(running=False)).splitlines()]
    assert ["UI", "not", "running", "(no", "api", "service", "installed)"] in rows


def test_a_down_service_shows_its_error():
    down = ServiceHealth(service="tracking", status="down", error="no service answers")
    text = render(status(OK, down))
    assert "Axonal is degraded: 1/2 healthy" in text
    row = next(line for line in text.splitlines() if "tracking" in line)
    assert "down" in row
    assert "no service answers" in row


def test_not_running():
    assert "Axonal is not running" in render(status(running=False))


@pytest.mark.parametrize(
    ("seconds", "text"),
    [(None, "-"), (0, "0s"), (59.9, "59s"), (61, "1m 01s"), (3600, "1h 00m"), (90061, "1d 01h")],
)
def test_format_uptime(seconds, text):
    assert format_uptime(seconds) == text
