"""stack.json round trip, atomic replacement, and the lock that allows one stack per home."""

from datetime import UTC, datetime
from pathlib import Path

import pytest

from axonal_stack.health import stack_status
from axonal_stack.lock import StackLock, StackRunningError, is_locked
from axonal_stack.settings import StackSettings
from axonal_stack.state import ProcessRef, ServiceState, StackState, read_state, write_state


def running_state(home: Path) -> StackState:
    return StackState(
        home=str(home),
        phase="running",
        detail="all services healthy",
        started_at=datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC),
        supervisor=ProcessRef(pid=100, started=1.5),
        namespace="axonal",
        nats_url="nats://127.0.0.1:4222",
        nats_port=4222,
        nats=ProcessRef(pid=101, started=2.0),
        database_url="postgresql://postgres@127.0.0.1:54320/axonal",
        postgres_port=54320,
        postgres=ProcessRef(pid=102, started=2.5),
        artifacts_url=str(home / "artifacts"),
        services={
            "identity": ServiceState(
                module="axonal_identity", process=ProcessRef(pid=103, started=3.0), restarts=2
            )
        },
    )


def test_round_trip(tmp_path: Path):
    state = running_state(tmp_path)
    write_state(tmp_path / "stack.json", state)
    assert read_state(tmp_path / "stack.json") == state
    assert [p.name for p in tmp_path.iterdir()] == ["stack.json"]  # no temp file left


@pytest.mark.parametrize(
    ("api_url", "ui_url"),
    [
        (None, None),
        ("http://127.0.0.1:8000", "http://127.0.0.1:8000/"),
        ("https://axonal.example/", "https://axonal.example/"),
    ],
)
async def test_the_ui_is_the_api_root_in_the_status_document(tmp_path: Path, api_url, ui_url):
    state = running_state(tmp_path).model_copy(update={"api_url": api_url})
    assert state.ui_url == ui_url
    doc = (await stack_status(state, running=False)).model_dump(mode="json")
    assert doc["ui_url"] == ui_url
    assert doc["api_url"] == api_url
    assert "ui_url" not in state.model_dump()  # derived, never recorded in stack.json


def test_write_replaces_the_previous_file(tmp_path: Path):
    path = tmp_path / "stack.json"
    write_state(path, running_state(tmp_path))
    write_state(path, running_state(tmp_path).stopped())
    loaded = read_state(path)
    assert loaded is not None
    assert loaded.phase == "stopped"


def test_missing_or_corrupt_state_reads_as_none(tmp_path: Path):
    assert read_state(tmp_path / "stack.json") is None
    (tmp_path / "stack.json").write_text('{"home": ')
    assert read_state(tmp_path / "stack.json") is None


def test_stopped_drops_pids_and_keeps_ports(tmp_path: Path):
    state = running_state(tmp_path)
    assert set(state.processes()) == {"supervisor", "nats", "postgres", "identity"}
    stopped = state.stopped("bye")
    assert stopped.processes() == {}
    assert (stopped.phase, stopped.detail) == ("stopped", "bye")
    assert (stopped.nats_port, stopped.postgres_port) == (4222, 54320)
    assert stopped.services["identity"].restarts == 2


def test_one_lock_holder_per_home(tmp_path: Path):
    path = tmp_path / "stack.lock"
    assert not is_locked(path)
    first = StackLock(path)
    first.acquire()
    try:
        assert is_locked(path)
        with pytest.raises(StackRunningError, match=str(tmp_path)):
            StackLock(path).acquire()
    finally:
        first.release()
    assert not is_locked(path)


def test_settings_layout(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("AXONAL_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("AXONAL_NATS_URL", "")
    settings = StackSettings()
    assert settings.nats_url is None  # empty means "start our own"
    paths = settings.paths
    assert paths.state == tmp_path / "home" / "stack.json"
    assert paths.service_log("identity") == tmp_path / "home" / "logs" / "identity.log"
    monkeypatch.setenv("AXONAL_HOME", "~/x")
    assert StackSettings().home == Path("~/x").expanduser()
