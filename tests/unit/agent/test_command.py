"""Command, working directory and environment of a job's process."""

import os
from pathlib import Path

import pytest

from axonal_agent.domain.command import (
    InvalidRunError,
    build_argv,
    build_env,
    localize,
    run_context,
    working_dir,
)


def test_command_and_args_are_joined_as_they_are():
    run = {"container": {"command": ["/bin/sh", "-c"], "args": ["echo hi && exit 3"]}}
    assert build_argv(run) == ["/bin/sh", "-c", "echo hi && exit 3"]


def test_args_alone_or_a_string_command():
    assert build_argv({"container": {"args": ["python", "train.py"]}}) == ["python", "train.py"]
    assert build_argv({"container": {"command": "true"}}) == ["true"]


@pytest.mark.parametrize("run", [{}, {"container": {}}, {"container": {"command": 3}}])
def test_nothing_to_run_is_an_invalid_run(run):
    with pytest.raises(InvalidRunError):
        build_argv(run)


def test_working_dir_is_used_when_it_exists(tmp_path):
    folder = tmp_path / "run"
    assert working_dir({"container": {"workingDir": str(tmp_path)}}, folder) == tmp_path
    assert working_dir({"container": {"workingDir": "/no/such/dir"}}, folder) == folder
    assert working_dir({"container": {}}, folder) == folder


def test_a_working_dir_under_the_artifacts_path_is_inside_the_run_folder(tmp_path):
    folder = tmp_path / "run"
    (folder / "repo" / "src").mkdir(parents=True)
    for wanted, expected in [
        ("/plx-context/artifacts", folder),
        ("/plx-context/artifacts/repo/src", folder / "repo" / "src"),
        ("/plx-context/artifacts/missing", folder),
        ("/plx-context/artifacts/../..", folder),
    ]:
        assert working_dir({"container": {"workingDir": wanted}}, folder) == expected


def test_the_agents_interpreter_folder_comes_first_on_path_once():
    base = {"PATH": os.pathsep.join(["/usr/bin", "/venv/bin", "/bin"])}
    job = {"container": {"command": ["true"]}}
    env = build_env(base, job, {}, {}, tools="/venv/bin")
    assert env["PATH"].split(os.pathsep) == ["/venv/bin", "/usr/bin", "/bin"]
    assert build_env({}, job, {}, {}, tools="/venv/bin")["PATH"] == "/venv/bin"
    run = {"container": {"env": [{"name": "PATH", "value": "/opt/own"}]}}
    assert build_env(base, run, {}, {}, tools="/venv/bin")["PATH"] == "/opt/own"  # the file's


def test_env_layers_and_private_settings_are_dropped():
    base = {
        "PATH": "/usr/bin",
        "COLOR": "base",
        "AXONAL_DATABASE_URL": "secret",
        "AWS_SECRET_ACCESS_KEY": "secret",
    }
    run = {"container": {"env": [{"name": "COLOR", "value": "red"}, {"name": "N", "value": 3}]}}
    context = run_context(
        run_uuid="u" * 32,
        attempt=2,
        project="acme/vision",
        nats_url="nats://x:4222",
        namespace="axonal",
        folder=Path("/runs/u/2"),
        outputs_file=Path("/runs/u/2/outputs.json"),
    )
    env = build_env(base, run, {"COLOR": "from-param", "LR": "0.1"}, context)
    assert env["PATH"] == "/usr/bin"
    assert env["COLOR"] == "from-param"
    assert env["N"] == "3"
    assert env["LR"] == "0.1"
    assert "AXONAL_DATABASE_URL" not in env
    assert "AWS_SECRET_ACCESS_KEY" not in env
    assert env["AXONAL_RUN_UUID"] == "u" * 32
    assert env["AXONAL_RUN_ATTEMPT"] == "2"
    assert env["AXONAL_RUN_OUTPUTS_FILE"] == "/runs/u/2/outputs.json"
    assert "AXONAL_API_URL" not in env


def test_api_url_is_given_when_known():
    context = run_context(
        run_uuid="u",
        attempt=1,
        project="a/b",
        nats_url="n",
        namespace="ns",
        folder=Path("/f"),
        outputs_file=Path("/f/o.json"),
        api_url="http://api:8000",
    )
    assert context["AXONAL_API_URL"] == "http://api:8000"


def test_context_paths_in_args_and_env_point_into_the_run_folder():
    folder, run_uuid = Path("/runs/r1/1"), "ab" * 16
    assert localize(f"--root_dir=/plx-context/artifacts/{run_uuid}", folder, run_uuid) == (
        "--root_dir=/runs/r1/1"
    )
    other = "--logdir=/plx-context/artifacts/cd12/outputs/tensorboard"
    assert localize(other, folder, run_uuid) == "--logdir=/runs/r1/1/cd12/outputs/tensorboard"
    assert localize("/plx-context/artifactsX and more", folder, run_uuid) == (
        "/plx-context/artifactsX and more"
    )
