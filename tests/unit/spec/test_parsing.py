"""load(): YAML/JSON/file/mapping in, one located SpecError out for anything wrong."""

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from axonal_spec.errors import SpecError
from axonal_spec.models import Job, Polyaxonfile
from axonal_spec.parsing import load, parse_text

JOB = (
    "version: 1.1\nkind: component\nname: train\nrun:\n  kind: job\n  container: {image: python}\n"
)


def error_of(source: Any, **kwargs: Any) -> SpecError:
    with pytest.raises(SpecError) as caught:
        load(source, **kwargs)
    return caught.value


def test_load_yaml_text():
    pf = load(JOB)
    assert isinstance(pf.runtime, Job)
    assert pf.name == "train"


def test_load_json_text():
    text = json.dumps({"kind": "component", "run": {"kind": "job"}}, indent="\t")
    assert load(text).run_kind == "job"


def test_load_a_file(tmp_path: Path):
    path = tmp_path / "polyaxonfile.yaml"
    path.write_text(JOB)
    assert load(path).name == "train"


def test_load_a_mapping():
    assert load({"kind": "operation", "hubRef": "x"}).hub_ref == "x"


def test_snake_case_keys_are_accepted():
    pf = load({"kind": "operation", "hub_ref": "x", "is_approved": False})
    assert (pf.hub_ref, pf.is_approved) == ("x", False)
    assert pf.to_dict() == {"kind": "operation", "hubRef": "x", "isApproved": False}


RICH = """
version: 1.1
kind: operation
name: nightly
description: every field family at once
tags: [a, b]
presets: [gpu]
strictParams: true
queue: agent/q
namespace: ns
isApproved: false
cost: 1.5
mount: ['./src:/code', {from: ./data, to: /data}]
cache: {disable: false, ttl: 100, io: [lr], sections: [init]}
termination: {maxRetries: 2, ttl: 60, timeout: 600, culling: {timeout: 30},
  probe: {http: {path: /, port: 80}}}
plugins: {auth: true, shm: false, logLevel: INFO, notifications: [{connections: [slack],
  trigger: failed}]}
build: {hubRef: kaniko, connection: docker, params: {destination: {value: img}}}
hooks: [{hubRef: slack, trigger: done, conditions: '{{ status }}', disableDefaults: true}]
schedule: {kind: interval, frequency: 3600, maxRuns: 3, dependsOnPast: true}
events: [{kinds: [run_status_succeeded], ref: runs.7b6a3c3e9b6a4a4e8f631b0e0f0c4d1a}]
joins: [{query: 'status:succeeded', sort: -metrics.loss, limit: 5, params: {u: globals.uuid}}]
dependencies: [a]
trigger: all_done
conditions: '{{ x > 1 }}'
skipOnUpstreamSkip: true
params: {lr: 0.1, note: {value: x, contextOnly: true}}
template: {enabled: true, description: needs a queue, fields: [queue]}
patchStrategy: pre_merge
runPatch: {connections: [data]}
component:
  inputs: [{name: lr, type: float, value: 0.01, validation: {ge: 0}}]
  outputs: [{name: loss, type: float}]
  run:
    kind: service
    ports: [8888]
    rewritePath: true
    environment: {labels: {a: b}, restartPolicy: Never}
    init: [{git: {url: 'https://x', revision: main}}, {connection: data, path: /data}]
    sidecars: [{name: s, image: busybox}]
    volumes: [{name: v, emptyDir: {}}]
    container: {image: python, command: [jupyter, lab], resources: {limits: {cpu: 1}}}
"""


def test_round_trip_of_a_rich_document():
    parsed = load(RICH)
    document = parsed.to_dict()
    assert load(document) == parsed
    assert load(json.dumps(document)).to_dict() == document
    assert document["params"] == {"lr": {"value": 0.1}, "note": {"value": "x", "contextOnly": True}}
    assert document["mount"] == ["./src:/code", {"from": "./data", "to": "/data"}]


def test_a_yaml_syntax_error_gives_line_and_column():
    error = error_of("kind: component\nrun:\n  kind: [job\n")
    [problem] = error.problems
    assert problem.location == ""
    assert problem.message.startswith("invalid YAML at line 4, column 1:")


def test_a_tab_indentation_error():
    [problem] = error_of("kind: component\nrun:\n\tkind: job\n").problems
    assert problem.message.startswith("invalid YAML at line 3, column 1:")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "the document is empty"),
        ("# only a comment\n", "the document is empty"),
        ("- a\n- b\n", "a polyaxonfile is a mapping, got a list"),
        ("42", "a polyaxonfile is a mapping, got 42"),
        ("[1, 2]", "a polyaxonfile is a mapping, got a list"),
    ],
)
def test_documents_that_are_not_a_mapping(text: str, message: str):
    assert [(p.location, p.message) for p in error_of(text).problems] == [("", message)]


def test_a_file_name_passed_as_text_gets_a_hint():
    [problem] = error_of("polyaxonfile.yaml").problems
    assert problem.hint == "pass a pathlib.Path to read a file"


def test_a_missing_file(tmp_path: Path):
    error = error_of(tmp_path / "nope.yaml")
    assert error.source == str(tmp_path / "nope.yaml")
    assert error.problems[0].message.startswith("cannot read the file:")


def test_a_binary_file(tmp_path: Path):
    path = tmp_path / "junk.yaml"
    path.write_bytes(b"\xff\xfe\x00\x01binary")
    assert error_of(path).problems[0].message == "the file is not UTF-8 text"


def test_control_characters():
    message = error_of("kind: \x00component").problems[0].message
    assert message.startswith("invalid YAML: character #x0000 at position 6")
    assert "\n" not in message


def test_location_names_the_source():
    error = error_of("kind: nope", location="https://example.com/op.yaml")
    assert error.source == "https://example.com/op.yaml"
    assert str(error).startswith("https://example.com/op.yaml: kind:")


def test_locations_use_the_file_spelling():
    error = error_of(
        {
            "kind": "component",
            "run": {
                "kind": "job",
                "container": {"image": "x", "resources": {"limits": {"cpu": []}}},
            },
            "termination": {"max_retries": "x"},
        }
    )
    assert sorted(p.location for p in error.problems) == [
        "run.container.resources.limits.cpu",
        "termination.maxRetries",
    ]


def test_union_tags_are_not_in_locations():
    error = error_of(
        {"kind": "component", "run": {"kind": "service", "ports": [1, "x"], "replicas": "many"}}
    )
    assert sorted((p.location, p.message) for p in error.problems) == [
        ("run.ports[1]", "expected an integer, got 'x'"),
        ("run.replicas", "expected an integer, got 'many'"),
    ]


def test_operations_in_a_dag_are_indexed():
    dag = {
        "kind": "dag",
        "operations": [
            {"name": "a", "hubRef": "x"},
            {"name": "b", "hubRef": "x"},
            {"name": "c d", "hubRef": "x"},
        ],
    }
    [problem] = error_of({"kind": "component", "run": dag}).problems
    assert problem.location == "run.operations[2].name"


def test_messages_are_one_line():
    error = error_of(
        {"kind": "component", "fooBar": 1, "cost": [1], "run": {"kind": "jobb"}, "tags": 3}
    )
    assert sorted((p.location, p.message) for p in error.problems) == [
        ("cost", "expected a number, got a list"),
        ("fooBar", "unknown key 'fooBar'"),
        (
            "run.kind",
            "run.kind must be one of job, service, dag, tfjob, pytorchjob, mpijob, raycluster, "
            "daskcluster, notifier, tuner, cleaner; got 'jobb'",
        ),
        ("tags", "expected a list, got 3"),
    ]
    assert all("\n" not in p.message for p in error.problems)


def test_a_missing_run_kind():
    assert [(p.location, p.message) for p in error_of({"run": "job"}).problems] == [
        ("run", "expected a mapping, got 'job'")
    ]


def test_non_string_keys():
    [problem] = error_of("kind: component\n1: x\n").problems
    assert (problem.location, problem.message) == ("1", "keys must be strings, got 1")


def test_parse_text_prefers_json_then_yaml():
    assert parse_text('{"a": 1}') == {"a": 1}
    assert parse_text("{a: 1}") == {"a": 1}


def test_deep_nesting_is_a_spec_error():
    text = "[" * 5000 + "]" * 5000
    assert error_of(text).problems


YAML_TEXT = st.text(
    alphabet=st.sampled_from(list("kind: run{}[]-,'\"\n\t #&*!|>%@`\x00\x85é1.")), max_size=60
)
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
    lambda children: (
        st.lists(children, max_size=4)
        | st.dictionaries(
            st.sampled_from(
                ["kind", "run", "name", "inputs", "params", "container", "image", "operations", "x"]
            )
            | st.text(max_size=5),
            children,
            max_size=4,
        )
    ),
    max_leaves=20,
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(YAML_TEXT)
def test_any_text_parses_or_raises_a_spec_error(text: str):
    assert isinstance(_load_or_problems(text), Polyaxonfile | tuple)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(JSON_VALUES)
def test_any_data_parses_or_raises_a_spec_error(data: Any):
    document = {"kind": "component", "run": data} if isinstance(data, dict) else data
    assert isinstance(_load_or_problems(document), Polyaxonfile | tuple)


def _load_or_problems(source: Any) -> Polyaxonfile | tuple[Any, ...]:
    """The file, or the problems of the SpecError (any other exception fails the test)."""
    try:
        return load(source)
    except SpecError as error:
        return error.problems
