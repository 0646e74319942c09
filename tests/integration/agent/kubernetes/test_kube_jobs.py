"""A job run on the Kubernetes executor, against the API double: its objects, its status
sequence, its logs and its outputs."""

from __future__ import annotations

import json

from axonal_testing.k8s_schemas import validate_manifest
from axonal_testing.kube.double import KubeDouble
from axonal_testing.waiting import wait_for

from .kube_support import NS, Created, env_of, launch, main_container


async def test_a_job_runs_to_success_with_its_logs_and_outputs(
    kube_agent, kube_double: KubeDouble, observed, execute, created: Created, tmp_path
):
    agent = await kube_agent()
    run_uuid, name = await launch(execute, "jobs/hello.yaml")
    await wait_for(lambda: observed.statuses(run_uuid) == ["starting"], message="starting")
    scheduled, running, logs, done = kube_double.scenarios.succeeded(
        NS, name, ("hello from axonal", "epoch 1"), message='{"accuracy": 0.9}'
    )
    for step in (scheduled, running, logs):
        step.run()
    await wait_for(lambda: "running" in observed.statuses(run_uuid), message="running")
    await wait_for(lambda: "epoch 1" in observed.lines(run_uuid), message="the pod's log")
    done.run()
    final = await observed.wait_final(run_uuid)

    assert observed.statuses(run_uuid) == ["starting", "running", "succeeded"]
    assert (final.exit_code, final.outputs) == (0, {"accuracy": 0.9})
    lines = observed.lines(run_uuid)
    assert lines.index("hello from axonal") < lines.index("epoch 1")
    assert final.log_lines == len(lines)
    folder = agent.settings.work_root / run_uuid / "1"
    assert json.loads((folder / "outputs.json").read_text()) == {"accuracy": 0.9}
    assert "epoch 1" in (folder / "logs.txt").read_text()
    assert created.kinds() == ["Secret", "Job"]
    for obj in created.objects:
        validate_manifest(obj)
    main = main_container(kube_double, "jobs", name)
    env = env_of(main)
    assert env["AXONAL_RUN_OUTPUTS_FILE"] == "/dev/termination-log"
    assert env["AXONAL_RUN_ARTIFACTS_PATH"] == "/plx-context/artifacts"
    assert env["AXONAL_RUN_UUID"] == run_uuid
    secret = f"{name}-env"
    for key in ("AXONAL_API_TOKEN", "AXONAL_NATS_URL"):
        assert env[key] == {"secretKeyRef": {"name": secret, "key": key}}
    assert main["terminationMessagePolicy"] == "FallbackToLogsOnError"
    # the Secret is gone with the attempt; the Job stays for its logs until its ttl
    assert kube_double.get("secrets", NS, secret) is None
    assert kube_double.get("jobs", NS, name) is not None


async def test_the_agent_reaches_its_cluster_through_a_kubeconfig_file(
    kube_agent, kube_double: KubeDouble, observed, execute, tmp_path
):
    kubeconfig = tmp_path / "kubeconfig"
    kubeconfig.write_text(
        json.dumps(
            {
                "apiVersion": "v1",
                "kind": "Config",
                "clusters": [{"name": "double", "cluster": {"server": kube_double.url}}],
                "users": [{"name": "tester", "user": {"token": "a-token"}}],
                "contexts": [{"name": "test", "context": {"cluster": "double", "user": "tester"}}],
                "current-context": "test",
            }
        )
    )
    await kube_agent(kube_api_host=None, kube_config=kubeconfig)
    run_uuid, name = await launch(execute, "jobs/hello.yaml")
    await wait_for(lambda: observed.statuses(run_uuid) == ["starting"], message="starting")
    await kube_double.play(kube_double.scenarios.succeeded(NS, name))
    final = await observed.wait_final(run_uuid)

    assert final.status == "succeeded"
