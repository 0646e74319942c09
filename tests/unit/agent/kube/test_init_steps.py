"""Init steps, sidecars, volumes and connections in pod templates."""

import dataclasses
from typing import Any

import pytest

from axonal_agent.domain.command import InvalidRunError
from axonal_agent.domain.kube import build_workload

from .kube_support import CLUSTER, RUN_UUID, env_of, pod_of, refusal, target

# -- init steps ------------------------------------------------------------------------


def _steps(*items: dict[str, Any]) -> list[dict[str, Any]]:
    return pod_of(init=list(items))["spec"]["initContainers"]


def test_git_clone_with_revision_flags_and_path():
    (step,) = _steps(
        {
            "git": {
                "url": "https://github.com/acme/repo.git",
                "revision": "v2",
                "flags": ["--depth=1"],
            }
        },
    )
    assert step["name"] == "plx-init-0"
    assert step["command"][:2] == ["/bin/sh", "-c"]
    assert step["command"][3:] == [
        "plx-init-0",
        "/plx-context/artifacts/repo",
        "v2",
        "--depth=1",
        "--",
        "https://github.com/acme/repo.git",
    ]
    assert step["terminationMessagePolicy"] == "FallbackToLogsOnError"
    assert step["volumeMounts"] == [
        {"name": "plx-artifacts", "mountPath": "/plx-context/artifacts", "subPath": f"{RUN_UUID}/2"}
    ]
    (elsewhere,) = _steps({"git": {"url": "https://github.com/acme/repo.git"}, "path": "code"})
    assert elsewhere["command"][4] == "/plx-context/artifacts/code"


def test_git_from_a_connection_clones_its_url_with_its_credentials():
    (step,) = _steps({"connection": "repo"})
    assert step["command"][-1] == "https://git.example.com/acme/models.git"
    assert step["command"][4] == "/plx-context/artifacts/models"
    assert env_of(step)["GIT_TOKEN"] == {
        "secretKeyRef": {"name": "git-credentials", "key": "GIT_TOKEN"}
    }


def test_file_with_mode_and_path():
    (step,) = _steps(
        {"file": {"content": "echo hi\n", "filename": "run.sh", "chmod": "+x"}, "path": "bin"}
    )
    assert step["image"] == "busybox:1.37"
    assert step["command"][-2:] == ["/plx-context/artifacts/bin/run.sh", "a+x"]
    assert env_of(step) == {"AXONAL_INIT_CONTENT": "echo hi\n"}
    (octal,) = _steps({"file": {"content": "x", "chmod": "0o640"}})
    assert octal["command"][-2:] == ["/plx-context/artifacts/file", "640"]


def test_a_file_mode_chmod_would_not_understand_is_refused():
    message = refusal(init=[{"file": {"content": "x", "chmod": "rwx"}}])
    assert "chmod 'rwx' is not understood" in message


def test_artifacts_and_paths_are_copied_from_the_store():
    steps = _steps(
        {"artifacts": {"files": ["data/a.csv"], "dirs": [["models/best", "model"]]}},
        {"paths": ["data/b.csv"], "path": "extra"},
    )
    assert steps[0]["command"][4:] == [
        "/plx-store/data/a.csv",
        "/plx-context/artifacts/a.csv",
        "/plx-store/models/best",
        "/plx-context/artifacts/model",
    ]
    assert steps[1]["command"][4:] == [
        "/plx-store/data/b.csv",
        "/plx-context/artifacts/extra/b.csv",
    ]
    assert steps[0]["volumeMounts"][1] == {
        "name": "plx-store",
        "mountPath": "/plx-store",
        "readOnly": True,
    }
    volumes = pod_of(init=[{"paths": ["a"]}, {"paths": ["b"]}])["spec"]["volumes"]
    assert [v["name"] for v in volumes] == ["plx-artifacts", "plx-store"]
    assert volumes[1]["persistentVolumeClaim"] == {"claimName": "axonal-store", "readOnly": True}


def test_a_copy_needs_a_store_and_a_relative_source():
    no_store = dataclasses.replace(CLUSTER, store_claim=None)
    run = {"kind": "job", "container": {"image": "x"}, "init": [{"paths": ["a"]}]}
    with pytest.raises(InvalidRunError, match=r"^init\[0\]: this agent has no artifacts store"):
        build_workload(run, target(cluster=no_store))
    assert refusal(init=[{"paths": ["/etc/passwd"]}]).startswith("init[0]: '/etc/passwd' must")
    assert refusal(init=[{"paths": [["a", "../../x"]]}]).startswith("init[0]: '../../x' leaves")


def test_a_path_outside_the_artifacts_folder_is_refused():
    message = refusal(init=[{"git": {"url": "https://x/y.git"}, "path": "/opt/code"}])
    assert message.startswith("init[0].path: '/opt/code' is outside /plx-context/artifacts")


def test_a_custom_init_container_and_a_container_overriding_a_step():
    steps = _steps(
        {"container": {"name": "prepare", "image": "alpine", "command": ["sh", "-c", "date"]}},
        {
            "git": {"url": "https://github.com/acme/repo.git"},
            "container": {
                "image": "my/git:1",
                "env": [{"name": "GIT_SSL_NO_VERIFY", "value": "1"}],
            },
        },
    )
    assert (steps[0]["name"], steps[0]["image"], steps[0]["command"]) == (
        "prepare",
        "alpine",
        ["sh", "-c", "date"],
    )
    assert steps[0]["volumeMounts"][0]["name"] == "plx-artifacts"
    assert (steps[1]["name"], steps[1]["image"]) == ("plx-init-1", "my/git:1")
    assert steps[1]["command"][-1] == "https://github.com/acme/repo.git"
    assert env_of(steps[1]) == {"GIT_SSL_NO_VERIFY": "1"}


@pytest.mark.parametrize(
    ("item", "start"),
    [
        ({"tensorboard": {"port": 6006}}, "init[0].tensorboard: not supported on Kubernetes"),
        ({"lineageRef": "abc"}, "init[0].lineageRef: not supported on Kubernetes"),
        ({"modelRef": "m:1"}, "init[0].modelRef: not supported on Kubernetes"),
        ({"artifactRef": "a:1"}, "init[0].artifactRef: not supported on Kubernetes"),
        ({"connection": "fixtures-store"}, "init[0].connection: pulling the s3 connection"),
        (
            {"artifacts": {"files": ["a"]}, "connection": "fixtures-store"},
            "init[0].artifacts: copying from the s3 connection 'fixtures-store'",
        ),
        ({"connection": "nope"}, "init[0].connection: unknown connection 'nope'"),
        ({"git": {"revision": "main"}}, "init[0].git: no url, and no git connection"),
    ],
)
def test_init_steps_that_cannot_be_done_name_their_field(item, start):
    assert refusal(init=[item]).startswith(start)


# -- sidecars, volumes, connections ----------------------------------------------------


def test_sidecars_are_native_sidecars_after_the_init_steps():
    pod = pod_of(
        init=[{"git": {"url": "https://x/y.git"}}],
        sidecars=[{"name": "proxy", "image": "envoy:1"}, {"image": "busybox", "command": "sleep"}],
    )
    steps = pod["spec"]["initContainers"]
    assert [(c["name"], c.get("restartPolicy")) for c in steps] == [
        ("plx-init-0", None),
        ("proxy", "Always"),
        ("plx-sidecar-1", "Always"),
    ]
    assert steps[1]["volumeMounts"][0]["mountPath"] == "/plx-context/artifacts"
    assert [c["name"] for c in pod["spec"]["containers"]] == ["main"]


def test_run_volumes_join_the_pod_and_plx_names_are_reserved():
    pod = pod_of(
        volumes=[{"name": "shm", "empty_dir": {"medium": "Memory"}}],
        container={"image": "x", "volumeMounts": [{"name": "shm", "mount_path": "/dev/shm"}]},
    )
    assert pod["spec"]["volumes"][1] == {"name": "shm", "emptyDir": {"medium": "Memory"}}
    assert pod["spec"]["containers"][0]["volumeMounts"][1] == {
        "name": "shm",
        "mountPath": "/dev/shm",
    }
    message = refusal(volumes=[{"name": "plx-artifacts", "emptyDir": {}}])
    assert message == "volumes[0].name: plx- names are reserved"


def test_connections_mount_secrets_and_config_maps_or_give_env():
    pod = pod_of(connections=["data", "fixtures-store"])
    main = pod["spec"]["containers"][0]
    volumes = {v["name"]: v for v in pod["spec"]["volumes"]}
    mounts = {m["mountPath"]: m for m in main["volumeMounts"]}
    keys, config = volumes[mounts["/keys"]["name"]], volumes[mounts["/etc/data"]["name"]]
    assert keys["secret"] == {
        "secretName": "data-keys",
        "items": [{"key": "key.json", "path": "key.json"}],
    }
    assert config["configMap"] == {"name": "data-config"}
    assert mounts["/keys"]["readOnly"] is True
    assert main["envFrom"] == [{"secretRef": {"name": "store-credentials"}}]


def test_an_unknown_connection_is_named():
    message = refusal(connections=["fixtures-store", "warehouse"])
    assert message == (
        "connections: unknown connection 'warehouse' (this agent has: data, fixtures-store, repo)"
    )


def test_an_artifacts_volume_without_a_claim_is_an_empty_dir():
    scratch = dataclasses.replace(CLUSTER, artifacts_claim=None)
    run = {"kind": "job", "container": {"image": "x"}}
    pod = build_workload(run, target(cluster=scratch)).primary["spec"]["template"]["spec"]
    assert pod["volumes"][0] == {"name": "plx-artifacts", "emptyDir": {}}
    assert pod["containers"][0]["volumeMounts"][0] == {
        "name": "plx-artifacts",
        "mountPath": "/plx-context/artifacts",
    }
