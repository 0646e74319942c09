"""The agent executes ExecuteRun commands as local processes and reports what happened."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from axonal_bus.run_tokens import RunClaims, verify_run_token
from axonal_testing.waiting import wait_for


def job(command: str, **container: Any) -> dict[str, Any]:
    return {
        "kind": "job",
        "container": {"image": "busybox", "command": ["/bin/sh", "-c", command], **container},
    }


def make_repo(repo: Path) -> Path:
    """A local git repository with one commit (no network exists here)."""
    repo.mkdir()
    (repo / "train.py").write_text("print('trained')\n")
    git = ["git", "-c", "user.email=t@example.com", "-c", "user.name=t"]
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    subprocess.run([*git, "-C", str(repo), "add", "."], check=True)
    subprocess.run([*git, "-C", str(repo), "commit", "-qm", "init"], check=True)
    return repo


async def test_exit_zero_reports_running_then_succeeded(start_agent, observed, execute):
    agent = await start_agent()
    run_uuid = await execute(job("echo hello; echo oops >&2"))
    final = await observed.wait_final(run_uuid)
    assert observed.statuses(run_uuid) == ["running", "succeeded"]  # no init step: no starting
    assert final.exit_code == 0
    assert final.agent == agent.settings.name
    await wait_for(lambda: {"hello", "oops"} <= set(observed.lines(run_uuid)))
    logs = (agent.settings.work_root / run_uuid / "1" / "logs.txt").read_text()
    assert "stdout hello" in logs
    assert "stderr oops" in logs


async def test_exit_code_three_fails_with_the_last_lines(start_agent, observed, execute):
    await start_agent()
    script = "for i in $(seq 1 30); do echo line-$i; done; exit 3"
    run_uuid = await execute(job(script))
    final = await observed.wait_final(run_uuid)
    assert observed.statuses(run_uuid) == ["running", "failed"]
    assert (final.status, final.reason, final.exit_code) == ("failed", "ExitCode", 3)
    assert final.message is not None
    lines = final.message.splitlines()
    assert lines == [f"line-{i}" for i in range(11, 31)]


async def test_logs_stream_while_the_process_runs(start_agent, observed, execute, tmp_path):
    await start_agent()
    gate = tmp_path / "gate"
    run_uuid = await execute(
        job(f"echo first; while [ ! -e {gate} ]; do sleep 0.05; done; echo last")
    )
    await wait_for(lambda: "first" in observed.lines(run_uuid), message="first line streamed")
    assert observed.final(run_uuid) is None  # still running
    gate.touch()
    await observed.wait_final(run_uuid)
    await wait_for(lambda: observed.lines(run_uuid)[-1:] == ["last"])
    seqs = [r.seq for b in observed.batches if b.run_uuid == run_uuid for r in b.records]
    assert seqs == list(range(1, len(seqs) + 1))


async def test_env_to_env_and_run_context_reach_the_process(
    start_agent, observed, execute, bus_settings
):
    agent = await start_agent()
    run = job(
        "echo color=$COLOR; echo lr=$LR; echo uuid=$AXONAL_RUN_UUID; "
        "echo attempt=$AXONAL_RUN_ATTEMPT; echo project=$AXONAL_PROJECT; "
        "echo ns=$AXONAL_NAMESPACE; echo nats=$AXONAL_NATS_URL; echo pwd=$(pwd); "
        "echo artifacts=$AXONAL_RUN_ARTIFACTS_PATH; echo db=${AXONAL_DATABASE_URL:-none}",
        env=[{"name": "COLOR", "value": "blue"}],
    )
    run_uuid = await execute(run, to_env={"LR": "0.01"}, attempt=2)
    final = await observed.wait_final(run_uuid)
    assert final.status == "succeeded"
    await wait_for(lambda: any(line.startswith("db=") for line in observed.lines(run_uuid)))
    values = dict(line.split("=", 1) for line in observed.lines(run_uuid) if "=" in line)
    folder = str(agent.settings.work_root / run_uuid / "2")
    assert values == {
        "color": "blue",
        "lr": "0.01",
        "uuid": run_uuid,
        "attempt": "2",
        "project": "acme/vision",
        "ns": bus_settings.namespace,
        "nats": bus_settings.nats_url,
        "pwd": folder,
        "artifacts": folder,
        "db": "none",
    }


async def test_the_process_gets_a_run_token_for_its_project(start_agent, observed, execute):
    secret = "run-token-secret-of-32-bytes-long!!"
    await start_agent(run_token_secret=secret)
    run_uuid = await execute(
        job("echo token=$AXONAL_API_TOKEN; echo secret=${AXONAL_RUN_TOKEN_SECRET:-none}")
    )
    assert (await observed.wait_final(run_uuid)).status == "succeeded"
    await wait_for(lambda: any(line.startswith("secret=") for line in observed.lines(run_uuid)))
    values = dict(line.split("=", 1) for line in observed.lines(run_uuid) if "=" in line)
    assert values["secret"] == "none"  # the agent's own settings never reach a run
    claims = verify_run_token(secret, values["token"])
    assert claims == RunClaims(run_uuid=run_uuid, project="acme/vision")


async def test_outputs_file_is_reported(start_agent, observed, execute):
    await start_agent()
    script = (
        f'{sys.executable} -c "import axonal.tracking as t; t.log_outputs(loss=0.25); '
        "t.log_outputs(accuracy=0.9, tag='best')\""
    )
    run_uuid = await execute(job(script))
    final = await observed.wait_final(run_uuid)
    assert final.status == "succeeded", final.message
    assert final.outputs == {"loss": 0.25, "accuracy": 0.9, "tag": "best"}


async def test_init_file_and_git_steps(start_agent, observed, execute, tmp_path):
    repo = make_repo(tmp_path / "repo")
    await start_agent()
    data = tmp_path / "artifacts" / "data"
    data.mkdir(parents=True)
    (data / "rows.csv").write_text("a,b\n")
    run = job(f"./hello.sh && {sys.executable} code/train.py && cat inputs/data/rows.csv")
    run["init"] = [
        {
            "file": {
                "content": "#!/bin/sh\necho hi from file\n",
                "filename": "hello.sh",
                "chmod": "+x",
            }
        },
        {"git": {"url": str(repo)}, "path": "code"},
        {"artifacts": {"dirs": ["data"]}, "path": "inputs"},
    ]
    run_uuid = await execute(run)
    final = await observed.wait_final(run_uuid)
    assert final.status == "succeeded", final.message
    assert observed.statuses(run_uuid) == ["starting", "running", "succeeded"]  # init steps
    await wait_for(lambda: {"hi from file", "trained", "a,b"} <= set(observed.lines(run_uuid)))


async def test_unreachable_git_fails_with_a_clear_reason(start_agent, observed, execute, tmp_path):
    await start_agent()
    run = job("true")
    run["init"] = [{"git": {"url": str(tmp_path / "missing-repo")}}]
    run_uuid = await execute(run)
    final = await observed.wait_final(run_uuid)
    assert observed.statuses(run_uuid) == ["starting", "failed"]
    assert final.reason == "GitCloneFailed"
    assert "could not clone" in (final.message or "")


async def test_missing_command_fails(start_agent, observed, execute):
    await start_agent()
    run_uuid = await execute(
        {"kind": "job", "container": {"image": "x", "command": ["no-such-binary-xyz"]}}
    )
    final = await observed.wait_final(run_uuid)
    assert (final.status, final.reason) == ("failed", "ExecutableNotFound")
    assert "'no-such-binary-xyz' is not installed" in (final.message or "")


async def test_duplicate_command_runs_once(start_agent, observed, execute, nats_client):
    await start_agent()
    run_uuid = await execute(job("echo once"))
    await observed.wait_final(run_uuid)
    await execute(job("echo once"), run_uuid=run_uuid)  # a new envelope, same attempt
    # the second command is taken and ignored: nothing more is reported for the attempt
    second = await execute(job("echo other"))
    await observed.wait_final(second)
    assert observed.statuses(run_uuid) == ["running", "succeeded"]


async def test_heartbeats_announce_slots_and_runs(start_agent, observed):
    agent = await start_agent(cpu=3)
    beat = await wait_for(
        lambda: [h for h in observed.heartbeats if h.agent == agent.settings.name],
        message="a heartbeat",
    )
    assert beat[0].queues == ["default"]
    assert beat[0].slots["cpu"] == 3
    assert json.loads(beat[0].model_dump_json())["free_slots"]["cpu"] == 3


async def test_ttl_deletes_the_folder_after_the_run(start_agent, observed, execute):
    agent = await start_agent()
    run_uuid = await execute(job("echo kept"), ttl_seconds=1)
    await observed.wait_final(run_uuid)
    folder = agent.settings.work_root / run_uuid / "1"
    assert (folder / "logs.txt").exists()
    await wait_for(lambda: not folder.exists(), timeout=10, message="folder deleted after ttl")
    # the run's folder goes too, once its last attempt folder is gone (a step later)
    await wait_for(lambda: not folder.parent.exists(), timeout=10, message="run folder deleted")


async def test_no_ttl_keeps_the_folder(start_agent, observed, execute):
    agent = await start_agent()
    run_uuid = await execute(job("echo kept"))
    await observed.wait_final(run_uuid)
    assert (agent.settings.work_root / run_uuid / "1" / "logs.txt").exists()


async def test_a_restarted_agent_deletes_folders_whose_ttl_passed(start_agent, observed, execute):
    agent = await start_agent()
    run_uuid = await execute(job("echo kept"), ttl_seconds=6)
    await observed.wait_final(run_uuid)
    await agent.stop()  # before the deadline: the timer dies with the agent
    folder = agent.settings.work_root / run_uuid / "1"
    assert folder.exists()
    await start_agent(name=agent.settings.name)
    await wait_for(lambda: not folder.exists(), timeout=25, message="deleted after a restart")
