"""The manifest validator the Kubernetes tests rely on refuses what the API server would."""

import copy
import gzip
import hashlib
import re

import pytest

from axonal_testing.k8s_schemas import ManifestError, crd_folder, validate_manifest

JOB = {
    "apiVersion": "batch/v1",
    "kind": "Job",
    "metadata": {"name": "plx-0123456789ab-1", "labels": {"axonal.dev/attempt": "1"}},
    "spec": {
        "template": {
            "spec": {
                "restartPolicy": "Never",
                "containers": [{"name": "main", "image": "busybox"}],
            }
        }
    },
}
TFJOB = {
    "apiVersion": "kubeflow.org/v1",
    "kind": "TFJob",
    "metadata": {"name": "plx-0123456789ab-1"},
    "spec": {
        "runPolicy": {"cleanPodPolicy": "Running", "backoffLimit": 0},
        "tfReplicaSpecs": {
            "Worker": {
                "replicas": 2,
                "restartPolicy": "Never",
                "template": {"spec": {"containers": [{"name": "tensorflow", "image": "tf"}]}},
            }
        },
    },
}


def _error(manifest: dict) -> ManifestError:
    with pytest.raises(ManifestError) as caught:
        validate_manifest(manifest)
    return caught.value


def test_valid_core_and_custom_manifests_pass():
    validate_manifest(JOB)
    validate_manifest(TFJOB)


def test_a_core_manifest_with_an_unknown_field_names_its_path():
    job = copy.deepcopy(JOB)
    job["spec"]["template"]["spec"]["containers"][0]["imag"] = "x"
    assert _error(job).path == "spec.template.spec.containers.0"


def test_a_custom_resource_is_strict_and_typed_by_its_crd():
    tfjob = copy.deepcopy(TFJOB)
    tfjob["spec"]["runPolicy"]["backofLimit"] = 0
    assert _error(tfjob).path == "spec.runPolicy"
    tfjob = copy.deepcopy(TFJOB)
    tfjob["spec"]["tfReplicaSpecs"]["Worker"]["replicas"] = "two"
    assert _error(tfjob).path == "spec.tfReplicaSpecs.Worker.replicas"


def test_metadata_of_a_custom_resource_is_an_object_meta():
    tfjob = copy.deepcopy(TFJOB)
    tfjob["metadata"]["labels"] = {"attempt": 1}
    assert _error(tfjob).path == "metadata.labels.attempt"


@pytest.mark.parametrize(
    ("change", "path", "reason"),
    [
        (lambda m: m["metadata"].update(name="Plx_1"), "metadata.name", "DNS-1123 subdomain"),
        (
            lambda m: m["metadata"]["labels"].update(run="a b"),
            "metadata.labels.run",
            "not a valid label value",
        ),
        (
            lambda m: m["spec"]["template"]["spec"]["containers"][0].update(
                volumeMounts=[{"name": "data", "mountPath": "/data"}]
            ),
            "spec.template.spec.containers.0.volumeMounts",
            "not a volume",
        ),
        (
            lambda m: m["spec"]["template"]["spec"].update(
                initContainers=[{"name": "main", "image": "x"}]
            ),
            "spec.template.spec",
            "two containers are named 'main'",
        ),
    ],
)
def test_names_labels_and_mounts_are_checked_beyond_the_schema(change, path, reason):
    job = copy.deepcopy(JOB)
    change(job)
    error = _error(job)
    assert (error.path, reason in error.reason) == (path, True)


def test_a_kind_without_schema_is_refused():
    error = _error({"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": "w"}})
    assert "neither a Kubernetes" in error.reason


def test_the_vendored_crds_are_the_upstream_files_the_readme_names():
    readme = (crd_folder() / "README.md").read_text()
    rows = dict(re.findall(r"^\| `([^`]+\.yaml\.gz)` \|.*\| `([0-9a-f]{64})` \|$", readme, re.M))
    files = {path.name: path for path in crd_folder().glob("*.yaml.gz")}
    assert sorted(rows) == sorted(files)
    for name, digest in rows.items():
        assert hashlib.sha256(gzip.decompress(files[name].read_bytes())).hexdigest() == digest
