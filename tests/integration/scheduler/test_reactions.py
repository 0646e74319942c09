"""Hooks and automation rules: what the scheduler starts when events arrive."""

import json
import uuid

import pytest

from axonal_bus import rpc
from axonal_bus.errors import RemoteError
from axonal_events import ErrorCode, StreamKind
from axonal_events.automations import (
    AutomationInfo,
    AutomationSpec,
    DeleteAutomation,
    ListAutomations,
    ListFirings,
)
from axonal_events.external import ExternalEvent, subject_tokens
from axonal_events.rpcs import Scheduler
from axonal_scheduler.domain.automations import firing_run_uuid
from axonal_scheduler.domain.hooks import hook_run_uuid
from axonal_testing.bus import drained, read_stream
from axonal_testing.waiting import wait_for

HOOKED = """
version: 1.1
kind: component
name: train
hooks:
- trigger: failed
  hubRef: webhook
  connection: ops-alerts
- trigger: succeeded
  hubRef: tensorboard
  disableDefaults: true
  params:
    uuid: {value: "{{ globals.uuid }}"}
run:
  kind: job
  container: {image: python, command: [python, -c, "print(1)"]}
"""

PLAIN = """
version: 1.1
kind: component
name: flaky
run:
  kind: job
  container: {image: python, command: [python, -c, "print(1)"]}
"""

BROKEN_HOOK = """
version: 1.1
kind: component
name: train
hooks:
- trigger: failed
  hubRef: slack
  connection: ops-alerts
  conditions: "{{ no_such_value > 1 }}"
- trigger: failed
  hubRef: discord
  connection: team
run:
  kind: job
  container: {image: python, command: [python, -c, "print(1)"]}
"""

RETRAIN = """
version: 1.1
kind: component
name: retrain
inputs:
- {name: dataset, type: str}
- {name: epochs, type: int, value: 1, isOptional: true}
run:
  kind: job
  container: {image: python, command: [python, -c, "print('{{ dataset }}')"]}
"""


def succeed(cmd):
    return [("running", {}), ("succeeded", {})]


def fail(cmd):
    return [("running", {}), ("failed", {"exit_code": 1})]


async def hook_requests(scheduler, run_uuid):
    stream = scheduler.subjects.stream_name(StreamKind.EVENTS)
    found = await read_stream(scheduler.js, stream, scheduler.subjects.events("hook"))
    docs = [json.loads(data) for _, data, _ in found]
    return [doc for doc in docs if doc["data"]["run_uuid"] == run_uuid]


async def requested_hooks(scheduler, run_uuid):
    """The run's ``hook.requested`` events, once there is one."""

    async def found():
        return await hook_requests(scheduler, run_uuid) or None

    return await wait_for(found, message="hook.requested")


async def settled(scheduler):
    """The scheduler's events consumer has handled everything published so far."""
    stream = scheduler.subjects.stream_name(StreamKind.EVENTS)
    await wait_for(lambda: drained(scheduler.js, stream, "scheduler-events"), message="drained")


async def test_a_succeeded_run_starts_its_operation_hook_with_the_parent_uuid(scheduler):
    scheduler.agent.script = succeed
    parent = await scheduler.submit(HOOKED)
    await scheduler.wait_status(parent, "succeeded")

    [hook] = await requested_hooks(scheduler, parent)
    assert (hook["data"]["hub_ref"], hook["data"]["trigger"]) == ("tensorboard", "succeeded")
    assert hook["data"]["params"] == {"uuid": parent}
    started = await scheduler.wait_status(hook_run_uuid(hook["id"]), "succeeded")
    assert (started.kind, started.name, started.inputs) == ("service", "tensorboard",
                                                           {"uuid": parent})  # fmt: skip


async def test_a_failed_run_requests_its_notification_hook_and_starts_no_operation(scheduler):
    scheduler.agent.script = fail
    parent = await scheduler.submit(HOOKED)
    await scheduler.wait_status(parent, "failed")

    [hook] = await requested_hooks(scheduler, parent)
    data = hook["data"]
    assert (data["hub_ref"], data["connection"], data["status"]) == (
        "webhook",
        "ops-alerts",
        "failed",
    )
    assert (data["name"], data["kind"]) == ("train", "job")
    assert data["params"]["uuid"] == parent
    assert data["params"]["condition"]["type"] == "failed"
    await settled(scheduler)
    assert await scheduler.get(hook_run_uuid(hook["id"])) is None  # notifications deliver it


async def test_a_hook_that_cannot_render_is_announced_and_the_others_still_fire(scheduler):
    scheduler.agent.script = fail
    parent = await scheduler.submit(BROKEN_HOOK)
    await scheduler.wait_status(parent, "failed")

    [hook] = await requested_hooks(scheduler, parent)
    assert (hook["data"]["hub_ref"], hook["data"]["connection"]) == ("discord", "team")
    stream = scheduler.subjects.stream_name(StreamKind.EVENTS)
    subject = scheduler.subjects.event("notification.failed")

    async def announced():
        found = await read_stream(scheduler.js, stream, subject)
        docs = [json.loads(data) for _, data, _ in found]
        return [d for d in docs if d["data"]["notification_id"].startswith(parent)] or None

    [failure] = await wait_for(announced, message="notification.failed")
    data = failure["data"]
    assert data["notification_id"] == f"{parent}:hooks[0]"
    assert (data["channel"], data["target"], data["final"]) == ("slack", "ops-alerts", True)
    assert "hooks[0]" in data["error"]
    assert "no_such_value" in data["error"]
    done = await read_stream(scheduler.js, stream, scheduler.subjects.event("run.done"))
    done_ids = [
        json.loads(d)["id"] for _, d, _ in done if json.loads(d)["data"]["run_uuid"] == parent
    ]
    assert data["source_event_id"] in done_ids


@pytest.fixture
def project():
    """The project the rules of a test belong to."""
    return "acme/auto"


def call(scheduler, method, request):
    return rpc.call(scheduler.nc, scheduler.subjects, method, request)


async def create_rule(scheduler, project, **fields) -> AutomationInfo:
    spec = AutomationSpec(project=project, **fields)
    return await call(scheduler, Scheduler.create_automation, spec)


async def firings(scheduler, project, rule_id: str):
    query = ListFirings(project=project, id=rule_id)
    return (await call(scheduler, Scheduler.automation_firings, query)).firings


async def post_external(scheduler, project, event_id: str, msg_id: str, **data) -> None:
    event = ExternalEvent(specversion="1.0", id=event_id, source="/warehouse",
                          type="dataset.updated", project=project, data=data)  # fmt: skip
    subject = scheduler.subjects.external(*subject_tokens(event))
    await scheduler.js.publish(subject, event.to_json(), headers={"Nats-Msg-Id": msg_id})


async def test_an_external_event_starts_the_rule_operation_once_with_a_param_from_its_data(
    scheduler, project
):
    scheduler.agent.script = succeed
    rule = await create_rule(
        scheduler, project, name="retrain", event="dataset.updated", external=True,
        source="/warehouse", polyaxonfile=RETRAIN, params={"epochs": 5},
        params_from={"dataset": "data.uri"},
    )  # fmt: skip
    event_id = uuid.uuid4().hex
    await post_external(scheduler, project, event_id, "m1", uri="s3://data/v2")
    run = await scheduler.wait_status(firing_run_uuid(rule.id, event_id), "succeeded")
    assert run.inputs == {"dataset": "s3://data/v2", "epochs": 5}
    assert scheduler.agent.received[-1].inputs["dataset"] == "s3://data/v2"

    await post_external(scheduler, project, event_id, "m2", uri="s3://data/v2")  # again
    await post_external(scheduler, project, uuid.uuid4().hex, "m3", path="no uri here")
    await settled(scheduler)
    found = await firings(scheduler, project, rule.id)
    assert sorted(f.outcome for f in found) == ["failed", "started"]
    [failed] = [f for f in found if f.outcome == "failed"]
    assert failed.detail == "param dataset: the event has no data.uri"
    assert failed.run_uuid is None


async def test_a_failed_run_is_restarted_once(scheduler, project):
    scheduler.agent.script = fail
    rule = await create_rule(scheduler, project, name="again", action="restart")
    first = await scheduler.submit(PLAIN, project=project)

    async def two_firings():
        found = await firings(scheduler, project, rule.id)
        return found if len(found) == 2 else None

    found = sorted(await wait_for(two_firings, message="restart, then skip"), key=lambda f: f.at)
    assert [f.outcome for f in found] == ["restarted", "skipped"]
    copy = await scheduler.wait_status(found[0].run_uuid, "failed")
    assert copy.original_uuid == first
    assert (found[1].run_uuid, found[1].detail) == (copy.uuid, "restarted once already")


@pytest.mark.parametrize(
    ("fields", "problem"),
    [
        ({"hub_ref": "tensorbord"}, "tensorboard"),  # a hint names the close match
        ({"polyaxonfile": "version: 1.1\nkind: component\nrun: {kind: nope}"}, "cannot start"),
    ],
)
async def test_a_rule_whose_target_cannot_start_is_refused(
    registry, scheduler, project, fields, problem
):
    with pytest.raises(RemoteError, match=problem) as refused:
        await create_rule(scheduler, project, name="broken", event="run.succeeded", **fields)
    assert refused.value.code is ErrorCode.INVALID


async def test_a_rule_name_is_unique_in_its_project(scheduler, project):
    await create_rule(
        scheduler, project, name="twice", event="run.succeeded", hub_ref="tensorboard"
    )
    with pytest.raises(RemoteError, match="named twice") as taken:
        await create_rule(scheduler, project, name="twice", event="run.succeeded", hub_ref="slack")
    assert taken.value.code is ErrorCode.CONFLICT


async def test_rules_are_listed_and_deleted_and_a_missing_one_is_not_found(scheduler, project):
    rule = await create_rule(
        scheduler, project, name="board", event="run.succeeded", hub_ref="tensorboard"
    )
    listed = await call(scheduler, Scheduler.list_automations, ListAutomations(project=project))
    assert [r.id for r in listed.automations] == [rule.id]
    left = await call(
        scheduler, Scheduler.delete_automation, DeleteAutomation(project=project, id=rule.id)
    )
    assert left.automations == []
    for method, request in (
        (Scheduler.delete_automation, DeleteAutomation(project=project, id=rule.id)),
        (Scheduler.automation_firings, ListFirings(project=project, id=rule.id)),
    ):
        with pytest.raises(RemoteError, match=f"automation {rule.id} does not exist") as missing:
            await call(scheduler, method, request)
        assert missing.value.code is ErrorCode.NOT_FOUND
