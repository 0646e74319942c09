"""Every fixture polyaxonfile of a kind an agent runs becomes objects the API server takes.

Each fixture is compiled as the scheduler compiles it; its ``run`` section (what
``ExecuteRun.run`` carries) is built into a workload whose objects are validated (Kubernetes
1.33 strict, or the operator's CRD) and whose important fields are checked.
"""

import math

import pytest

from axonal_agent.domain.command import InvalidRunError
from axonal_agent.domain.kube import build_workload
from axonal_agent.domain.kube.build import BUILDERS
from axonal_testing.k8s_schemas import validate_manifest

from .kube_support import FIXTURES, NAME, RUN_UUID, compiled, env_of, pod_specs, strings, target

#: Fixtures an agent cannot run on Kubernetes, and the field it names.
REFUSED = {"joins/compare.yaml": "init[0].tensorboard"}


def _runnable() -> list[str]:
    """The fixtures whose compiled run is one attempt of a kind an agent runs."""
    found = []
    for path in sorted(FIXTURES.glob("*/*.yaml")):
        relative = str(path.relative_to(FIXTURES))
        if relative.startswith(("invalid/", "presets/")):
            continue
        doc = compiled(relative)
        if not doc.get("matrix") and doc["run_kind"] in BUILDERS:
            found.append(relative)
    return found


RUNNABLE = _runnable()
BUILT = [relative for relative in RUNNABLE if relative not in REFUSED]


def test_the_fixtures_cover_every_kind():
    kinds = {compiled(relative)["run_kind"] for relative in RUNNABLE}
    assert kinds >= {"job", "service", "tfjob", "pytorchjob", "mpijob", "raycluster", "daskcluster"}


@pytest.mark.parametrize("relative", BUILT)
def test_every_object_validates_and_carries_the_attempt(relative):
    run = compiled(relative)["run"]
    workload = build_workload(run, target())
    assert workload.name == NAME
    assert workload.label_selector == f"axonal.dev/run-uuid={RUN_UUID},axonal.dev/attempt=2"
    assert workload.objects[0]["kind"] == workload.kind.kind
    for obj in workload.objects:
        validate_manifest(obj)
        assert obj["metadata"]["namespace"] == "axonal-runs"
        assert obj["metadata"]["labels"]["axonal.dev/run-uuid"] == RUN_UUID
        assert obj["metadata"]["labels"]["axonal.dev/attempt"] == "2"
        assert obj["metadata"]["labels"]["app.kubernetes.io/managed-by"] == "axonal"
    assert not [s for s in strings(list(workload.objects)) if "{{" in s], "a template was left"
    pods = pod_specs(workload)
    assert pods
    for where, pod in pods.items():
        labels = pod["metadata"]["labels"]
        assert {k: labels[k] for k in workload.selector} == dict(workload.selector), where
        main = pod["spec"]["containers"][0]
        env = env_of(main)
        assert env["AXONAL_API_TOKEN"] == {
            "secretKeyRef": {"name": f"{NAME}-env", "key": "AXONAL_API_TOKEN"}
        }
        assert env["AXONAL_NATS_URL"]["secretKeyRef"]["key"] == "AXONAL_NATS_URL"
        assert env["AXONAL_RUN_UUID"] == RUN_UUID
        assert main["volumeMounts"][0] == {
            "name": "plx-artifacts",
            "mountPath": "/plx-context/artifacts",
            "subPath": f"{RUN_UUID}/2",
        }
        assert pod["spec"]["serviceAccountName"] == "axonal-run"
        assert pod["spec"]["imagePullSecrets"] == [{"name": "registry"}]


@pytest.mark.parametrize("relative", sorted(REFUSED))
def test_a_fixture_that_cannot_run_names_its_field(relative):
    with pytest.raises(InvalidRunError) as caught:
        build_workload(compiled(relative)["run"], target())
    assert str(caught.value).startswith(f"{REFUSED[relative]}: ")


@pytest.mark.parametrize("relative", [r for r in BUILT if compiled(r)["run_kind"] == "job"])
def test_a_job_runs_once_within_its_timeout(relative):
    run = compiled(relative)["run"]
    job = build_workload(run, target()).primary
    assert (job["apiVersion"], job["kind"]) == ("batch/v1", "Job")
    assert job["spec"]["backoffLimit"] == 0
    assert job["spec"]["activeDeadlineSeconds"] == math.ceil(90.5)
    assert job["spec"]["ttlSecondsAfterFinished"] == 600
    pod = job["spec"]["template"]["spec"]
    assert pod["restartPolicy"] == "Never"
    main = pod["containers"][0]
    assert main["name"] == "main"
    assert main["image"] == run["container"].get("image", "axonal/python:3.12")
    assert main["command"] == [str(part) for part in run["container"]["command"]]
    steps = pod.get("initContainers", [])
    assert [c["name"] for c in steps] == [f"plx-init-{i}" for i in range(len(run.get("init", [])))]


def test_git_and_file_init_steps_of_fixtures():
    hooks = build_workload(compiled("hooks/hooks.yaml")["run"], target()).primary
    (clone,) = hooks["spec"]["template"]["spec"]["initContainers"]
    assert clone["image"] == "alpine/git:2.47.2"
    assert clone["command"][-4:] == [
        "/plx-context/artifacts/axonal-examples",
        "",
        "--",
        "https://git.axonal.invalid/axonal-examples",
    ]
    script = build_workload(compiled("jobs/inline-script.yaml")["run"], target()).primary
    (write,) = script["spec"]["template"]["spec"]["initContainers"]
    assert write["command"][-2:] == ["/plx-context/artifacts/greet.py", ""]
    assert env_of(write)["AXONAL_INIT_CONTENT"].startswith("import argparse")


def test_the_builder_fixture_writes_its_dockerfile_for_kaniko():
    job = build_workload(compiled("build/build-operation.yaml")["run"], target()).primary
    (write,) = job["spec"]["template"]["spec"]["initContainers"]
    assert write["command"][-2] == "/plx-context/artifacts/Dockerfile"
    assert env_of(write)["AXONAL_INIT_CONTENT"] == (
        "FROM python:3.12-slim\n"
        "ENV LC_ALL C.UTF-8\nENV LANG C.UTF-8\nENV LANGUAGE C.UTF-8\n"
        "ENV SHELL /bin/bash\n"
        'ENV PIP_DISABLE_PIP_VERSION_CHECK="1"\n'
        "WORKDIR /code\n"
        "RUN pip install --no-cache-dir numpy scikit-learn\n"
    )


def test_a_gpu_request_is_also_its_limit():
    torch = build_workload(compiled("distributed/pytorchjob.yaml")["run"], target()).primary
    worker = torch["spec"]["pytorchReplicaSpecs"]["Worker"]["template"]["spec"]["containers"][0]
    assert worker["resources"] == {
        "requests": {"nvidia.com/gpu": "1"},
        "limits": {"nvidia.com/gpu": "1"},
    }


@pytest.mark.parametrize(
    ("relative", "port", "replicas"),
    [
        ("services/dashboard.yaml", 8050, 1),
        ("services/lab.yaml", 8888, 1),
        ("services/notebook.yaml", 8888, 1),
    ],
)
def test_a_service_is_a_deployment_behind_a_service(relative, port, replicas):
    workload = build_workload(compiled(relative)["run"], target())
    deployment, service = workload.objects
    assert (deployment["kind"], service["kind"]) == ("Deployment", "Service")
    assert deployment["spec"]["replicas"] == replicas
    assert deployment["spec"]["selector"]["matchLabels"] == dict(workload.selector)
    assert service["spec"]["selector"] == dict(workload.selector)
    assert service["spec"]["ports"] == [
        {"name": "port-0", "port": port, "targetPort": port, "protocol": "TCP"}
    ]
    url = f"http://{NAME}.axonal-runs.svc:{port}/"
    assert workload.endpoints == {str(port): url}
    main = deployment["spec"]["template"]["spec"]["containers"][0]
    assert main["readinessProbe"]["tcpSocket"] == {"port": port}
    assert {"containerPort": port, "protocol": "TCP"} in main["ports"]
    assert env_of(main)["AXONAL_SERVICE_URL"] == url
    assert deployment["spec"]["template"]["spec"]["restartPolicy"] == "Always"
    assert not workload.enforces_timeout


def test_a_service_fills_its_port_and_base_url_and_gets_its_connection():
    workload = build_workload(compiled("services/lab.yaml")["run"], target())
    main = workload.primary["spec"]["template"]["spec"]["containers"][0]
    assert main["args"] == [
        f"lab --port=8888 --base-url=/ --root=/artifacts/{RUN_UUID}",
    ]
    assert main["envFrom"] == [{"secretRef": {"name": "store-credentials"}}]
    assert env_of(main)["AWS_REGION"] == "eu-west-1"


@pytest.mark.parametrize(
    ("relative", "key", "replicas", "container"),
    [
        ("distributed/tfjob.yaml", "tfReplicaSpecs", {"Chief": 1, "Worker": 2}, "tensorflow"),
        (
            "distributed/pytorchjob.yaml",
            "pytorchReplicaSpecs",
            {"Master": 1, "Worker": 2},
            "pytorch",
        ),
        ("distributed/mpijob.yaml", "mpiReplicaSpecs", {"Launcher": 1, "Worker": 2}, "mpi"),
    ],
)
def test_kubeflow_jobs_have_their_replicas_and_run_once(relative, key, replicas, container):
    workload = build_workload(compiled(relative)["run"], target())
    job = workload.primary
    assert job["apiVersion"] == "kubeflow.org/v1"
    specs = job["spec"][key]
    assert {name: spec["replicas"] for name, spec in specs.items()} == replicas
    for spec in specs.values():
        assert spec["restartPolicy"] == "Never"
        assert spec["template"]["spec"]["containers"][0]["name"] == container
    assert job["spec"]["runPolicy"] == {
        "backoffLimit": 0,
        "cleanPodPolicy": "Running",
        "activeDeadlineSeconds": 91,
        "ttlSecondsAfterFinished": 600,
    }
    assert workload.enforces_timeout


def test_mpi_slots_per_worker_and_tf_init_per_replica():
    mpi = build_workload(compiled("distributed/mpijob.yaml")["run"], target()).primary
    assert mpi["spec"]["slotsPerWorker"] == 2
    tf = build_workload(compiled("distributed/tfjob.yaml")["run"], target()).primary
    chief, worker = (
        tf["spec"]["tfReplicaSpecs"][r]["template"]["spec"] for r in ("Chief", "Worker")
    )
    assert "initContainers" not in chief
    assert [c["name"] for c in worker["initContainers"]] == ["plx-init-0"]
    assert worker["containers"][0]["imagePullPolicy"] == "IfNotPresent"


def test_ray_with_an_entrypoint_is_a_ray_job_with_its_groups():
    workload = build_workload(compiled("distributed/raycluster.yaml")["run"], target())
    job = workload.primary
    assert (job["apiVersion"], job["kind"]) == ("ray.io/v1", "RayJob")
    spec = job["spec"]
    assert spec["entrypoint"] == "python3 tune.py"
    assert spec["shutdownAfterJobFinishes"] is True
    assert spec["activeDeadlineSeconds"] == 91
    cluster = spec["rayClusterSpec"]
    assert cluster["rayVersion"] == "2.9.0"
    assert cluster["headGroupSpec"]["rayStartParams"] == {"dashboard-host": "0.0.0.0"}
    head = cluster["headGroupSpec"]["template"]["spec"]["containers"][0]
    assert (head["name"], head["image"]) == ("ray-head", "axonal/ray:2")
    (group,) = cluster["workerGroupSpecs"]
    assert {k: group[k] for k in ("groupName", "replicas", "minReplicas", "maxReplicas")} == {
        "groupName": "small",
        "replicas": 1,
        "minReplicas": 1,
        "maxReplicas": 3,
    }
    assert group["template"]["spec"]["containers"][0]["resources"]["limits"] == {"cpu": "1"}


def test_dask_is_a_cluster_of_a_scheduler_and_workers():
    workload = build_workload(compiled("distributed/daskcluster.yaml")["run"], target())
    (cluster,) = workload.objects
    assert (cluster["apiVersion"], cluster["kind"]) == ("kubernetes.dask.org/v1", "DaskCluster")
    scheduler, worker = cluster["spec"]["scheduler"], cluster["spec"]["worker"]
    assert worker["replicas"] == 3
    assert worker["spec"]["tolerations"] == [
        {"key": "pool", "operator": "Equal", "value": "dask", "effect": "NoSchedule"}
    ]
    assert [p["port"] for p in scheduler["service"]["ports"]] == [8786, 8787]
    assert scheduler["service"]["selector"] == {
        "dask.org/cluster-name": NAME,
        "dask.org/component": "scheduler",
    }
    assert scheduler["spec"]["containers"][0]["readinessProbe"]["httpGet"]["path"] == "/health"
    assert worker["spec"]["restartPolicy"] == "Always"
    assert workload.notes == (
        "scheduler.environment.restartPolicy: OnFailure replaced by Always "
        "(its pods belong to a Deployment)",
        "worker.environment.restartPolicy: OnFailure replaced by Always "
        "(its pods belong to a Deployment)",
    )
