"""A service on the Kubernetes executor: a Deployment and its Service, running once a
replica is available (with its URLs), until it is stopped; and a stop of a running job."""

from __future__ import annotations

from axonal_testing.k8s_schemas import validate_manifest
from axonal_testing.kube.double import KubeDouble
from axonal_testing.waiting import wait_for

from .kube_support import NS, Created, env_of, launch, main_container, publish_stopping


def _steps(statuses: list[str]) -> list[str]:
    """The statuses without repeats (a service says ``starting`` once its init steps are
    planned and again once it is launched)."""
    return [s for i, s in enumerate(statuses) if i == 0 or statuses[i - 1] != s]


async def test_a_service_runs_with_its_urls_until_it_is_stopped(
    kube_agent,
    kube_double: KubeDouble,
    observed,
    execute,
    created: Created,
    nats_client,
    bus_settings,
):
    await kube_agent()
    run_uuid, name = await launch(execute, "services/dashboard.yaml")
    await wait_for(lambda: "starting" in observed.statuses(run_uuid), message="starting")
    [pod] = await wait_for(lambda: kube_double.pods(NS, f"axonal.dev/run-uuid={run_uuid}"))
    pod_name = pod["metadata"]["name"]
    kube_double.kubelet.schedule(NS, pod_name)
    kube_double.kubelet.start(NS, pod_name)
    kube_double.log(NS, pod_name, "Dash is running on http://0.0.0.0:8050/")
    await wait_for(lambda: "running" in observed.statuses(run_uuid), message="running")
    await wait_for(lambda: any("Dash" in line for line in observed.lines(run_uuid)), message="log")
    env = env_of(main_container(kube_double, "deployments", name))
    await publish_stopping(nats_client, bus_settings, run_uuid)
    final = await observed.wait_final(run_uuid)

    assert _steps(observed.statuses(run_uuid)) == ["starting", "running", "stopped"]
    [running] = [r for r in observed.reports if r.run_uuid == run_uuid and r.status == "running"]
    url = f"http://{name}.{NS}.svc:8050/"
    assert running.endpoints == {"8050": url}
    assert env["AXONAL_SERVICE_URL"] == url
    assert final.reason == "Stopped"
    assert created.kinds() == ["Secret", "Deployment", "Service"]
    for obj in created.objects:
        validate_manifest(obj)
    for plural, deleted in (("deployments", name), ("services", name), ("secrets", f"{name}-env")):
        assert kube_double.get(plural, NS, deleted) is None
        assert (plural, deleted, "Background") in {
            (d.resource, d.name, d.requested) for d in kube_double.deletions
        }
    assert kube_double.pods(NS, f"axonal.dev/run-uuid={run_uuid}") == []


async def test_a_stopped_job_is_deleted_with_its_pods(
    kube_agent, kube_double: KubeDouble, observed, execute, nats_client, bus_settings
):
    await kube_agent()
    run_uuid, name = await launch(execute, "jobs/hello.yaml")
    await wait_for(lambda: observed.statuses(run_uuid) == ["starting"], message="starting")
    for step in kube_double.scenarios.succeeded(NS, name)[:3]:  # scheduled, running, logs
        step.run()
    await wait_for(lambda: "running" in observed.statuses(run_uuid), message="running")
    await publish_stopping(nats_client, bus_settings, run_uuid)
    final = await observed.wait_final(run_uuid)

    assert observed.statuses(run_uuid) == ["starting", "running", "stopped"]
    assert (final.reason, final.message) == ("Stopped", "stopped on request")
    assert kube_double.get("jobs", NS, name) is None
    assert kube_double.pods(NS, f"job-name={name}") == []
    deletions = [(d.resource, d.name, d.requested) for d in kube_double.deletions]
    assert deletions[0] == ("jobs", name, "Background")  # its pods go with it
    assert ("secrets", f"{name}-env", "Background") in deletions
    assert "done" in observed.lines(run_uuid)
