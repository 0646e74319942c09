"""``axonal run``, ``ops`` and ``project`` against a real api (uvicorn in a thread, real NATS)
whose scheduler and identity are small fakes."""

import json
from pathlib import Path
from textwrap import dedent

import pytest
from typer.testing import CliRunner

import axonal.cli
from axonal_api.app import build_app
from axonal_api.settings import ApiSettings
from axonal_events import RunStatus, StreamKind
from axonal_events.commands import COMMANDS
from axonal_testing.api_fakes import OPERATOR_TOKEN, FakePlatform, api_in_thread
from axonal_testing.bus import read_stream

JOB = """
kind: component
name: hello
inputs:
- {name: who, type: str}
run:
  kind: job
  container: {image: python, command: [echo, "{{ who }}"]}
"""


@pytest.fixture
def platform():
    return FakePlatform()


@pytest.fixture
def api(bus_settings, platform, monkeypatch, tmp_path):
    settings = ApiSettings(
        nats_url=bus_settings.nats_url,
        namespace=bus_settings.namespace,
        api_rpc_timeout=2.0,
        api_token=OPERATOR_TOKEN,
    )
    with api_in_thread(lambda: build_app(settings), bus_settings, platform) as url:
        monkeypatch.setenv("AXONAL_API_URL", url)
        monkeypatch.setenv("AXONAL_API_TOKEN", OPERATOR_TOKEN)
        monkeypatch.setenv("AXONAL_PROJECT", "acme/demo")
        monkeypatch.setenv("AXONAL_HOME", str(tmp_path / "home"))
        monkeypatch.setenv("AXONAL_API_TOKEN", OPERATOR_TOKEN)
        yield url


def cli(*args: str):
    result = CliRunner().invoke(axonal.cli.app, list(args), env={"COLUMNS": "200", "NO_COLOR": "1"})
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result


def write(tmp_path: Path, text: str, name: str = "job.yaml") -> str:
    path = tmp_path / name
    path.write_text(dedent(text))
    return str(path)


async def test_run_prints_the_uuid_and_publishes_submit(
    api, tmp_path, nats_client, bus_settings, platform
):
    result = cli("run", "-f", write(tmp_path, JOB), "-P", "who=world", "-q", "cpu")
    assert result.exit_code == 0, result.output
    run_uuid = result.stdout.strip()
    assert len(run_uuid) == 32
    assert "warning: run.container.image is ignored by the local agent" in result.stderr
    js = nats_client.jetstream()
    stream = bus_settings.subjects.stream_name(StreamKind.COMMANDS)
    [(_, data, _)] = await read_stream(js, stream)
    submit = COMMANDS.decode(data).data
    assert (submit.run_uuid, submit.project, submit.queue) == (run_uuid, "demo", "cpu")
    assert submit.params == {"who": "world"}


async def test_run_inlines_path_refs(api, tmp_path, nats_client, bus_settings):
    write(tmp_path, JOB, "hello.yaml")
    op = write(tmp_path, "kind: operation\nparams: {who: {value: x}}\npathRef: ./hello.yaml\n")
    result = cli("run", "-f", op)
    assert result.exit_code == 0, result.output
    js = nats_client.jetstream()
    stream = bus_settings.subjects.stream_name(StreamKind.COMMANDS)
    [(_, data, _)] = await read_stream(js, stream)
    [text] = COMMANDS.decode(data).data.files
    assert "pathRef" not in text
    assert "name: hello" in text
    broken = cli("run", "-f", write(tmp_path, "kind: operation\npathRef: gone.yaml\n", "b.yaml"))
    assert broken.exit_code == 1
    assert "cannot read" in broken.output


def test_run_json_and_project_option(api, tmp_path):
    result = cli("run", "-f", write(tmp_path, JOB), "-P", "who=x", "-p", "other/proj", "--json")
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert (doc["owner"], doc["project"]) == ("other", "proj")


def test_invalid_file_shows_the_problems_without_a_traceback(api, tmp_path):
    result = cli("run", "-f", write(tmp_path, JOB))
    assert result.exit_code == 1
    assert "who" in result.output
    assert "Traceback" not in result.output
    assert "Error:" in result.output


def test_run_watch_ends_with_the_status_and_exit_code(api, tmp_path, platform):
    ok = cli("run", "-f", write(tmp_path, JOB), "-P", "who=x", "--watch")
    assert ok.exit_code == 0, ok.output
    assert "succeeded" in ok.output
    platform.finish_as = RunStatus.FAILED
    failed = cli("run", "-f", write(tmp_path, JOB), "-P", "who=x", "--watch", "--json")
    assert failed.exit_code == 1
    assert json.loads(failed.stdout)["status"] == "failed"


def test_run_watch_of_a_matrix_shows_children_done(api, tmp_path, platform):
    platform.children = 3
    result = cli("run", "-f", write(tmp_path, JOB), "-P", "who=x", "--watch")
    assert result.exit_code == 0, result.output
    assert "3/3" in result.output


def test_ops_ls_get_statuses_logs(api, platform):
    ignored = "`environment.nodeSelector` is ignored by the local agent: a Kubernetes setting"
    run = platform.add_run(name="train", warnings=[ignored])
    platform.add_run(status=RunStatus.FAILED)
    platform.add_lines(run.uuid, "hello", "world")
    listed = cli("ops", "ls")
    assert listed.exit_code == 0, listed.output
    assert run.uuid in listed.output
    assert "train" in listed.output
    failed = cli("ops", "ls", "--status", "failed", "--json")
    assert [r["status"] for r in json.loads(failed.stdout)["runs"]] == ["failed"]
    got = cli("ops", "get", run.uuid, "--json")
    assert json.loads(got.stdout)["name"] == "train"
    shown = cli("ops", "get", run.uuid).output
    assert "running" in shown
    assert "warning: environment.nodeSelector is ignored by the local agent" in shown
    history = cli("ops", "statuses", run.uuid)
    assert "created" in history.output
    assert "running" in history.output
    logs = cli("ops", "logs", run.uuid)
    assert logs.stdout.splitlines() == ["hello", "world"]


def test_ops_logs_follow_and_statuses_watch_end_when_done(api, platform):
    run = platform.add_run(status=RunStatus.SUCCEEDED)
    platform.add_lines(run.uuid, "a", "b")
    followed = cli("ops", "logs", run.uuid, "--follow")
    assert followed.exit_code == 0, followed.output
    assert followed.stdout.splitlines() == ["a", "b"]
    watched = cli("ops", "statuses", run.uuid, "--watch", "--json")
    assert json.loads(watched.stdout)["changes"][-1]["status"] == "succeeded"


async def test_actions_publish_commands(api, platform, nats_client, bus_settings):
    run = platform.add_run()
    for verb in ("stop", "restart", "resume", "approve"):
        result = cli("ops", verb, run.uuid)
        assert result.exit_code == 0, result.output
        assert "accepted" in result.output
    declined = CliRunner().invoke(axonal.cli.app, ["ops", "rm", run.uuid], input="n\n")
    assert declined.exit_code == 1
    assert "Aborted" in declined.output
    deleted = cli("ops", "rm", run.uuid, "--yes")
    assert deleted.exit_code == 0, deleted.output
    js = nats_client.jetstream()
    stream = bus_settings.subjects.stream_name(StreamKind.COMMANDS)
    verbs = [COMMANDS.decode(data).data.verb for _, data, _ in await read_stream(js, stream)]
    assert verbs == ["stop", "restart", "resume", "approve", "delete"]


def test_unknown_run_is_a_clear_error(api):
    result = cli("ops", "get", "0" * 32)
    assert result.exit_code == 1
    assert "does not exist" in result.output
    assert "Hint:" in result.output


def test_projects(api):
    created = cli("project", "create", "acme/churn", "--json")
    assert created.exit_code == 0, created.output
    assert json.loads(created.stdout)["name"] == "churn"
    again = cli("project", "create", "acme/churn")
    assert again.exit_code == 1
    assert "already exists" in again.output
    listed = cli("project", "ls")
    assert "acme/churn" in listed.output


def test_no_api_known_gives_a_hint(monkeypatch, tmp_path):
    monkeypatch.delenv("AXONAL_API_URL", raising=False)
    monkeypatch.setenv("AXONAL_HOME", str(tmp_path))
    result = cli("ops", "ls")
    assert result.exit_code == 1
    assert "axonal up" in result.output


def test_api_url_is_read_from_the_stack_state(monkeypatch, tmp_path):
    monkeypatch.delenv("AXONAL_API_URL", raising=False)
    monkeypatch.setenv("AXONAL_HOME", str(tmp_path))
    (tmp_path / "stack.json").write_text(json.dumps({"api_url": "http://127.0.0.1:9"}))
    result = cli("ops", "ls")
    assert result.exit_code == 1
    assert "cannot reach the api at http://127.0.0.1:9" in result.output
