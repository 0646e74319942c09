"""compose(), patch_values() and runPatch: the four patch strategies, as Polyaxon applies them."""

from typing import Any

import pytest

from axonal_spec.composition import (
    apply_run_patch,
    compose,
    is_preset,
    patch_values,
    validate_run_patch,
)
from axonal_spec.errors import SpecError
from axonal_spec.models import Job, RayCluster, TFJob
from axonal_spec.parsing import load
from axonal_testing.conformance import project_fixtures

PRESETS = project_fixtures() / "polyaxonfiles" / "presets"

BASE: dict[str, Any] = {
    "kind": "component",
    "name": "train",
    "tags": ["a"],
    "termination": {"maxRetries": 2, "ttl": 10},
    "params": {"lr": {"value": 0.1, "contextOnly": True}},
    "environment": {"labels": {"team": "ml", "tier": "1"}},
    "run": {
        "kind": "job",
        "connections": ["data"],
        "init": [{"git": {"url": "https://a"}}],
        "container": {
            "image": "python:3.11",
            "command": ["python", "train.py"],
            "env": [{"name": "A", "value": "1"}],
            "resources": {"limits": {"cpu": 1}},
        },
    },
}
PATCH: dict[str, Any] = {
    "tags": ["b", "a"],
    "termination": {"ttl": 20},
    "params": {"lr": 0.2},
    "environment": {"labels": {"team": "infra"}},
    "run": {
        "connections": ["models"],
        "init": [{"git": {"url": "https://b"}}],
        "container": {
            "command": ["python", "eval.py"],
            "env": [{"name": "A", "value": "2"}, {"name": "B", "value": "3"}],
            "resources": {"requests": {"cpu": 1}},
        },
    },
}


def composed(strategy: str) -> dict[str, Any]:
    return compose([BASE, {**PATCH, "patchStrategy": strategy}]).to_dict()


def test_post_merge_the_patch_wins_and_lists_accumulate():
    result = composed("post_merge")
    run = result["run"]
    assert result["tags"] == ["a", "b"]
    assert result["termination"] == {"maxRetries": 2, "ttl": 20}
    assert result["params"] == {"lr": {"value": 0.2}}
    assert result["environment"] == {"labels": {"team": "infra", "tier": "1"}}
    assert run["connections"] == ["data", "models"]
    assert run["init"] == [{"git": {"url": "https://a"}}, {"git": {"url": "https://b"}}]
    assert run["container"]["command"] == ["python", "eval.py"]
    assert run["container"]["env"] == [{"name": "A", "value": "2"}, {"name": "B", "value": "3"}]
    assert run["container"]["resources"] == {"limits": {"cpu": 1}, "requests": {"cpu": 1}}
    assert run["container"]["image"] == "python:3.11"


def test_pre_merge_the_current_value_wins_and_patch_items_come_first():
    result = composed("pre_merge")
    run = result["run"]
    assert result["tags"] == ["b", "a"]
    assert result["termination"] == {"maxRetries": 2, "ttl": 10}
    assert result["params"] == {"lr": {"value": 0.1, "contextOnly": True}}
    assert result["environment"] == {"labels": {"team": "ml", "tier": "1"}}
    assert run["connections"] == ["models", "data"]
    assert run["init"] == [{"git": {"url": "https://b"}}, {"git": {"url": "https://a"}}]
    assert run["container"]["command"] == ["python", "train.py"]
    assert run["container"]["env"] == [{"name": "A", "value": "1"}, {"name": "B", "value": "3"}]
    assert run["container"]["resources"] == {"limits": {"cpu": 1}, "requests": {"cpu": 1}}


def test_replace_sets_what_the_patch_sets():
    result = composed("replace")
    run = result["run"]
    assert result["tags"] == ["b", "a"]
    assert result["termination"] == {"maxRetries": 2, "ttl": 20}
    assert result["params"] == {"lr": {"value": 0.2}}
    assert result["environment"] == {"labels": {"team": "infra"}}
    assert run["connections"] == ["models"]
    assert run["init"] == [{"git": {"url": "https://b"}}]
    assert run["container"]["env"] == [{"name": "A", "value": "2"}, {"name": "B", "value": "3"}]
    assert run["container"]["resources"] == {"requests": {"cpu": 1}}
    assert run["container"]["image"] == "python:3.11"


def test_isnull_only_fills_what_is_missing():
    result = compose([BASE, {**PATCH, "description": "new", "patchStrategy": "isnull"}]).to_dict()
    assert result["description"] == "new"
    assert {k: v for k, v in result.items() if k != "description"} == compose([BASE]).to_dict()


def test_a_null_in_the_patch_clears_under_post_merge_only():
    base = {**BASE, "description": "old"}
    assert "description" not in compose([base, {"description": None}]).to_dict()
    kept = compose([base, {"description": None, "patchStrategy": "pre_merge"}]).to_dict()
    assert kept["description"] == "old"


def test_a_patch_does_not_change_kind_or_reference():
    result = compose([{"kind": "operation", "hubRef": "a"}, {"kind": "component", "hubRef": "b"}])
    assert (result.kind, result.hub_ref) == ("operation", "a")


def test_runs_of_different_kinds_are_not_merged():
    service = {"run": {"kind": "service", "ports": [80]}}
    assert compose([BASE, service]).run_kind == "service"
    assert compose([BASE, {**service, "patchStrategy": "pre_merge"}]).run_kind == "job"
    assert compose([BASE, {**service, "patchStrategy": "isnull"}]).run_kind == "job"


def test_run_patches_accumulate_across_documents():
    result = compose(
        [
            {"kind": "operation", "hubRef": "x", "runPatch": {"connections": ["a"]}},
            {"runPatch": {"connections": ["b"], "container": {"image": "y"}}},
        ]
    )
    assert result.run_patch == {"connections": ["a", "b"], "container": {"image": "y"}}


def test_presets_apply_after_the_documents():
    result = compose(
        [BASE, {"queue": "gpu"}],
        presets=[{"isPreset": True, "queue": "cpu", "patchStrategy": "isnull", "namespace": "n"}],
    )
    assert (result.queue, result.namespace) == ("gpu", "n")


def test_the_fixture_presets():
    base = load(PRESETS / "base.yaml")
    termination = load(PRESETS / "termination.yaml")
    git = load(PRESETS / "git-init.yaml")
    assert is_preset(termination)
    assert is_preset(git)
    assert not is_preset(base)
    result = compose([base, termination, git])
    assert result.to_dict()["termination"] == {"ttl": 600, "maxRetries": 1}
    assert result.runtime is not None
    run = apply_run_patch(result.runtime, result.run_patch, result.patch_strategy)
    assert isinstance(run, Job)
    assert run.to_dict()["init"] == [{"git": {"url": "https://git.axonal.invalid/axonal-examples"}}]


def test_compose_reports_bad_documents():
    with pytest.raises(SpecError) as caught:
        compose([])
    assert caught.value.problems[0].message == "nothing to compose: no document given"
    with pytest.raises(SpecError) as bad_patch:
        compose([BASE, {"termination": {"ttl": "x"}}])
    assert bad_patch.value.source == "patch 1"
    assert [(p.location, p.message) for p in bad_patch.value.problems] == [
        ("termination.ttl", "expected an integer, got 'x'")
    ]


def test_patch_values_on_plain_data():
    assert patch_values({"a": 1, "b": {"c": 1}}, {"b": {"d": 2}}) == {"a": 1, "b": {"c": 1, "d": 2}}
    assert patch_values([1, 2], [2, 3]) == [1, 2, 3]
    assert patch_values([1, 2], [2, 3], "pre_merge") == [2, 3, 1]
    assert patch_values(["x"], ["y"], key="args") == ["y"]
    assert patch_values(["x"], ["y"], "pre_merge", key="args") == ["x"]
    assert patch_values({"a": 1}, None, "isnull") == {"a": 1}
    assert patch_values(None, {"a": 1}, "isnull") == {"a": 1}
    assert patch_values({"kind": "cron", "cron": "x"}, {"kind": "interval"}, key="schedule") == {
        "kind": "interval"
    }


def test_run_patch_on_a_job():
    run = Job.model_validate({"container": {"image": "a", "resources": {"limits": {"cpu": 1}}}})
    patched = apply_run_patch(run, {"container": {"resources": {"limits": {"nvidia.com/gpu": 1}}}})
    assert patched.to_dict()["container"] == {
        "image": "a",
        "resources": {"limits": {"cpu": 1, "nvidia.com/gpu": 1}},
    }
    replaced = apply_run_patch(
        run, {"container": {"resources": {"requests": {"cpu": 2}}}}, "replace"
    )
    assert replaced.to_dict()["container"] == {"image": "a", "resources": {"requests": {"cpu": 2}}}
    kept = apply_run_patch(run, {"container": {"image": "b", "workingDir": "/w"}}, "isnull")
    assert kept.to_dict()["container"]["image"] == "a"  # type: ignore[index]
    assert kept.to_dict()["container"]["workingDir"] == "/w"  # type: ignore[index]


def test_a_replica_shaped_patch_spreads_to_the_replicas():
    tf = TFJob.model_validate({"worker": {"replicas": 2}, "chief": {"replicas": 1}})
    patched = apply_run_patch(tf, {"container": {"image": "x"}})
    assert isinstance(patched, TFJob)
    assert patched.to_dict() == {
        "kind": "tfjob",
        "chief": {"replicas": 1, "container": {"image": "x"}},
        "worker": {"replicas": 2, "container": {"image": "x"}},
    }
    ray = RayCluster.model_validate({"head": {}, "workers": {"small": {"replicas": 1}}})
    patched_ray = apply_run_patch(ray, {"environment": {"nodeSelector": {"a": "b"}}})
    assert isinstance(patched_ray, RayCluster)
    assert patched_ray.to_dict()["workers"] == {
        "small": {"replicas": 1, "environment": {"nodeSelector": {"a": "b"}}}
    }
    assert validate_run_patch({"init": [{"connection": "c"}]}, "pytorchjob") == {
        "master": {"init": [{"connection": "c"}]},
        "worker": {"init": [{"connection": "c"}]},
    }


@pytest.mark.parametrize(
    ("patch", "kind", "location", "message"),
    [
        ({"ports": "x"}, "service", "runPatch.ports", "expected a list, got 'x'"),
        ({"fooBar": 1}, "job", "runPatch.fooBar", "unknown key 'fooBar'"),
        (
            {"kind": "service"},
            "job",
            "runPatch.kind",
            "runPatch.kind 'service' does not match the run kind 'job'",
        ),
        ({"container": {"image": "x"}, "bad": 1}, "tfjob", "runPatch.bad", "unknown key 'bad'"),
        (
            {"worker": {"replicas": "many"}},
            "tfjob",
            "runPatch.worker.replicas",
            "expected an integer, got 'many'",
        ),
        ({"concurrency": 0}, "dag", "runPatch.concurrency", "must be >= 1, got 0"),
    ],
)
def test_bad_run_patches(patch: dict[str, Any], kind: str, location: str, message: str):
    with pytest.raises(SpecError) as caught:
        validate_run_patch(patch, kind)
    assert [(p.location, p.message) for p in caught.value.problems] == [(location, message)]


def test_a_run_patch_needs_a_kind():
    with pytest.raises(SpecError) as caught:
        apply_run_patch({"container": {"image": "x"}}, {"connections": ["a"]})
    assert caught.value.problems[0].location == "run.kind"
