"""``axonal up --cluster`` before anything starts: the nodes' configurations (checked by
``nats-server -t``), their ports, the credentials of every URL, and what each replica of a
service is told."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from axonal_events import Subjects
from axonal_stack.discovery import ServiceEntry
from axonal_stack.environment import NoNatsUserError, service_env
from axonal_stack.health import _address
from axonal_stack.nats_server import nats_server_binary
from axonal_stack.ports import free_port
from axonal_stack.replicas import Replica, api_ports, replicas
from axonal_stack.servers import ROUTE_USER, nats_cluster
from axonal_stack.settings import StackSettings
from axonal_stack.state import NatsNode, ProcessRef, ServiceState, StackState
from axonal_stack.users import read_passwords, with_credentials


@pytest.fixture
def settings(tmp_path: Path) -> StackSettings:
    return StackSettings(home=tmp_path, cluster=True, nats_port=0, nats_cluster_port=0)


def test_a_cluster_is_three_nodes_that_route_to_each_other(settings: StackSettings):
    passwords = read_passwords(settings.paths.nats_users, Subjects())
    nodes = nats_cluster(settings, {}, passwords)
    assert list(nodes) == ["nats-1", "nats-2", "nats-3"]
    ports = [p for node in nodes.values() for p in (node.port, node.cluster.port)]
    assert len(set(ports)) == 6
    secret = settings.paths.read_nats_route_secret()
    for name, node in nodes.items():
        assert node.cluster is not None
        assert node.server_name == name
        assert node.data_dir == settings.paths.nats_node(name)
        block = node.cluster.config(node.host)
        peers = {f"127.0.0.1:{other.cluster.port}" for other in nodes.values() if other is not node}
        assert {route.rsplit("@", 1)[1] for route in block["routes"]} == peers
        assert all(r.startswith(f"nats-route://{ROUTE_USER}:") for r in block["routes"])
        assert block["authorization"] == {"user": ROUTE_USER, "password": secret}
        assert '"admin"' in node.config()  # the bus users on every node


def test_every_node_configuration_is_valid_for_nats_server(settings: StackSettings):
    passwords = read_passwords(settings.paths.nats_users, Subjects())
    for node in nats_cluster(settings, {}, passwords).values():
        node.prepare()
        check = subprocess.run(
            [nats_server_binary(), "-t", "-c", str(node.config_path)],
            capture_output=True,
            text=True,
            check=False,
        )
        assert check.returncode == 0, check.stdout + check.stderr


def test_a_restarted_cluster_keeps_its_ports(settings: StackSettings):
    passwords = read_passwords(settings.paths.nats_users, Subjects())
    first = nats_cluster(settings, {}, passwords)
    recorded = {
        name: NatsNode(port=node.port, cluster_port=node.cluster.port)
        for name, node in first.items()
    }
    again = nats_cluster(settings, recorded, passwords)
    assert {n: (s.port, s.cluster.port) for n, s in again.items()} == {
        n: (r.port, r.cluster_port) for n, r in recorded.items()
    }


def test_every_url_of_a_cluster_gets_the_credentials():
    url = with_credentials("nats://127.0.0.1:1,nats://127.0.0.1:2", "run", "p@ss")
    assert url == "nats://run:p%40ss@127.0.0.1:1,nats://run:p%40ss@127.0.0.1:2"
    assert _address(url) == "127.0.0.1:1, 127.0.0.1:2"


def test_each_replica_is_numbered_and_agents_get_names_of_their_own(monkeypatch):
    monkeypatch.setattr("socket.gethostname", lambda: "box")
    entries = [ServiceEntry("agent", "axonal_agent"), ServiceEntry("api", "axonal_api")]
    planned = replicas(entries, 2)
    assert [r.key for r in planned] == ["agent", "api", "agent-2", "api-2"]
    envs = {r.key: r.env({"AXONAL_HOME": "/h"}) for r in planned}
    assert {k: e["AXONAL_REPLICA"] for k, e in envs.items()} == {
        "agent": "1", "api": "1", "agent-2": "2", "api-2": "2"
    }  # fmt: skip
    assert "AXONAL_AGENT_NAME" not in envs["agent"]  # the first keeps the default name
    assert envs["agent-2"]["AXONAL_AGENT_NAME"] == "box-2"
    named = planned[2].env({"AXONAL_AGENT_NAME": "gpu"})
    assert named["AXONAL_AGENT_NAME"] == "gpu-2"
    assert [r.key for r in replicas(entries, 1)] == ["agent", "api"]


def test_axonal_down_finds_every_node_and_a_stop_forgets_their_processes(tmp_path: Path):
    nodes = {
        f"nats-{i}": NatsNode(
            port=4221 + i, cluster_port=6221 + i, process=ProcessRef(pid=i, started=1.0)
        )
        for i in (1, 2, 3)
    }
    state = StackState(home=str(tmp_path), namespace="axonal", cluster=True, nats_nodes=nodes)
    assert set(state.processes()) == {"nats-1", "nats-2", "nats-3"}
    stopped = state.stopped()
    assert stopped.processes() == {}
    assert {n.port for n in stopped.nats_nodes.values()} == {4222, 4223, 4224}  # kept


def test_a_further_api_replica_gets_a_port_of_its_own_and_keeps_it(tmp_path: Path):
    entries = [ServiceEntry("api", "axonal_api"), ServiceEntry("tracking", "axonal_tracking")]
    planned = replicas(entries, 2)
    first = free_port()
    ports = api_ports(planned, host="127.0.0.1", first=first, preferred=0, before={})
    assert set(ports) == {"api", "api-2"}
    assert ports["api"] == first
    assert ports["api-2"] != first
    kept = free_port()
    before = {"api-2": ServiceState(module="axonal_api", url=f"http://127.0.0.1:{kept}")}
    again = api_ports(planned, host="127.0.0.1", first=first, preferred=0, before=before)
    assert again["api-2"] == kept


def test_each_replica_connects_as_its_service_and_runs_get_every_node(tmp_path: Path):
    passwords = {"agent": "a", "run": "r", "identity": "i"}
    shared = {"AXONAL_NATS_URL": "nats://127.0.0.1:1,nats://127.0.0.1:2"}
    agent = Replica(ServiceEntry("agent", "axonal_agent"), 2, 2)
    env = service_env(agent, shared, home=tmp_path, passwords=passwords)
    assert (env["AXONAL_NATS_USER"], env["AXONAL_NATS_PASSWORD"]) == ("agent", "a")
    assert env["AXONAL_AGENT_RUN_NATS_URL"] == "nats://run:r@127.0.0.1:1,nats://run:r@127.0.0.1:2"
    assert (env["AXONAL_REPLICA"], env["AXONAL_REPLICAS"]) == ("2", "2")
    api = Replica(ServiceEntry("api", "axonal_api"), 2)
    with pytest.raises(NoNatsUserError, match="api has no NATS user"):
        service_env(api, shared, home=tmp_path, passwords=passwords, api_port=1234)
    assert (
        service_env(api, shared, home=tmp_path, passwords={}, api_port=1234)["AXONAL_API_PORT"]
        == "1234"
    )
