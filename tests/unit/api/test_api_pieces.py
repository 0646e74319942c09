"""The api's pure pieces: submit validation, idempotency keys, error mapping, settings."""

from pathlib import Path

import pytest

import axonal_api
from axonal_api.errors import HTTP_STATUS, remote_status
from axonal_api.idempotency import submit_ids
from axonal_api.settings import ApiSettings
from axonal_api.validation import problems_of, validate_submission
from axonal_bus.errors import RemoteError
from axonal_events import ErrorCode
from axonal_spec import SpecError

JOB = """
kind: component
inputs: [{name: n, type: int}]
run: {kind: job, container: {image: python, command: [echo, "{{ n }}"]}}
"""


def validate(*files: str, params=None, presets=()):
    return validate_submission(
        files, presets, params or {}, uuid="a" * 32, owner="acme", project="demo"
    )


def test_a_valid_file_with_its_params_passes_with_the_fields_the_agent_ignores():
    assert validate(JOB, params={"n": 3}) == [
        "`run.container.image` is ignored by the local agent: "
        "the command runs on the agent's host, not in an image"
    ]


def test_problems_are_located_per_file():
    with pytest.raises(SpecError) as raised:
        validate(JOB, "kind: component\nrun: [", params={"n": 1})
    [problem] = problems_of(raised.value)
    assert problem["location"].startswith("files[1]")
    assert "YAML" in problem["message"]


def test_missing_params_and_bad_types_are_reported():
    with pytest.raises(SpecError) as raised:
        validate(JOB)
    assert any("n" in p["message"] for p in problems_of(raised.value))
    with pytest.raises(SpecError):
        validate(JOB, params={"n": "not a number"})


def test_schema_and_binding_problems_are_reported_together():
    """A container typo does not hide that the required input has no value."""
    with pytest.raises(SpecError) as raised:
        validate(JOB.replace("command:", "comand:"))
    assert [(p["location"], p["message"]) for p in problems_of(raised.value)] == [
        ("files[0]: run.container.comand", "unknown field; did you mean 'command'?"),
        ("inputs", "required inputs without a value: n"),
    ]


def test_idempotency_keys_give_the_same_ids_per_project_and_key():
    first = submit_ids("acme", "demo", "a")
    assert submit_ids("acme", "demo", "a") == first
    assert submit_ids("acme", "other", "a") != first
    assert submit_ids("acme", "demo", "b") != first
    assert submit_ids("acme", "demo", None) != submit_ids("acme", "demo", None)
    run_uuid, command_id = first
    assert len(run_uuid) == 32
    assert command_id != run_uuid


def test_every_error_code_has_one_http_status():
    assert set(HTTP_STATUS) == set(ErrorCode)
    assert HTTP_STATUS[ErrorCode.NOT_FOUND] == 404
    assert HTTP_STATUS[ErrorCode.CONFLICT] == 409
    assert HTTP_STATUS[ErrorCode.INVALID] == 400
    assert HTTP_STATUS[ErrorCode.FORBIDDEN] == 403
    assert HTTP_STATUS[ErrorCode.UNAVAILABLE] == 503


@pytest.mark.parametrize("code", list(ErrorCode))
def test_the_status_of_a_remote_error_is_its_codes_whatever_the_message(code):
    messages = ["not found: run x", "project acme/x already exists", "conflict", "forbidden"]
    assert {remote_status(RemoteError("s", code, m)) for m in messages} == {HTTP_STATUS[code]}


def test_no_code_reads_the_text_of_a_remote_error_to_decide():
    """Only the error handler passes ``remote_message`` on, as the body's message (and the
    hubRef resolution, as the message of the hubRef problem of a submission)."""
    sources = Path(axonal_api.__file__).parent.rglob("*.py")
    readers = {p.name for p in sources if "remote_message" in p.read_text()}
    assert readers == {"errors.py", "hub_refs.py"}
    handler = (Path(axonal_api.__file__).parent / "errors.py").read_text()
    assert handler.count("remote_message") == 1


def test_settings_read_the_api_and_bus_variables(monkeypatch):
    monkeypatch.setenv("AXONAL_API_PORT", "8123")
    monkeypatch.setenv("AXONAL_API_TOKEN", "")
    monkeypatch.setenv("AXONAL_NAMESPACE", "ns1")
    settings = ApiSettings()
    assert settings.api_port == 8123
    assert settings.api_token is None
    assert settings.subjects.namespace == "ns1"


def test_path_refs_are_not_followed_on_the_server():
    op = "kind: operation\npathRef: /etc/passwd\n"
    with pytest.raises(SpecError) as raised:
        validate(op)
    [problem] = problems_of(raised.value)
    assert "cannot be read by the api" in problem["message"]
