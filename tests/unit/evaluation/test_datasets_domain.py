"""Dataset schemas checked, items validated naming the path and the problem, the next version
of an item merged from an upsert."""

from __future__ import annotations

from datetime import UTC, datetime

from axonal_evaluation.domain.datasets import item_problem, next_version, schema_problem
from axonal_events.datasets import DatasetItem, UpsertDatasetItem

SCHEMA = {
    "type": "object",
    "required": ["country"],
    "properties": {
        "country": {"type": "string"},
        "tags": {"type": "array", "items": {"type": "string"}},
    },
}
T0 = datetime(2026, 1, 1, tzinfo=UTC)


def _item(**fields) -> DatasetItem:
    base = {
        "id": "i1", "project_id": "p", "dataset_id": "d", "dataset_name": "qa",
        "input": {"country": "France"}, "expected_output": "Paris", "metadata": {"k": 1},
        "source_trace_id": "t1", "created_at": T0, "updated_at": T0, "version": T0,
    }  # fmt: skip
    return DatasetItem(**(base | fields))


def test_a_valid_schema_has_no_problem_and_none_is_no_schema():
    assert schema_problem("inputSchema", SCHEMA) is None
    assert schema_problem("inputSchema", None) is None


def test_an_invalid_schema_is_named_with_where_it_breaks():
    problem = schema_problem("inputSchema", {"properties": {"a": {"type": "text"}}})
    assert problem is not None
    assert problem.startswith("inputSchema is not a valid JSON Schema at properties/a/type")


def test_a_matching_item_has_no_problem():
    fields = {"input": {"country": "France", "tags": ["eu"]}, "expected_output": "Paris"}
    assert item_problem(fields, SCHEMA, {"type": "string"}) is None
    assert item_problem({"input": 7}, None, None) is None


def test_a_problem_names_the_field_the_path_and_the_problem():
    assert item_problem({"input": {"country": 7}}, SCHEMA, None) == (
        "input.country: 7 is not of type 'string'"
    )
    assert item_problem({"input": {"country": "x", "tags": ["a", 2]}}, SCHEMA, None) == (
        "input.tags[1]: 2 is not of type 'string'"
    )
    assert item_problem({"input": {}}, SCHEMA, None) == ("input: 'country' is a required property")
    fields = {"input": {"country": "x"}, "expected_output": 3}
    assert item_problem(fields, SCHEMA, {"type": "string"}) == (
        "expectedOutput: 3 is not of type 'string'"
    )


def test_a_new_item_is_active_with_what_the_request_gives():
    request = UpsertDatasetItem(project_id="p", dataset_name="qa", input={"country": "Peru"})
    fields = next_version(None, request)
    assert fields == {
        "input": {"country": "Peru"}, "expected_output": None, "metadata": None,
        "source_trace_id": None, "source_observation_id": None, "status": "ACTIVE",
    }  # fmt: skip


def test_the_next_version_keeps_what_the_request_leaves_out():
    request = UpsertDatasetItem(
        project_id="p", dataset_name="qa", id="i1", expected_output="Paris!", status="ARCHIVED"
    )
    fields = next_version(_item(), request)
    assert fields["input"] == {"country": "France"}
    assert fields["expected_output"] == "Paris!"
    assert fields["metadata"] == {"k": 1}
    assert fields["source_trace_id"] == "t1"
    assert fields["status"] == "ARCHIVED"
    assert (
        next_version(_item(status="ARCHIVED"), request.model_copy(update={"status": None}))[
            "status"
        ]
        == "ARCHIVED"
    )
