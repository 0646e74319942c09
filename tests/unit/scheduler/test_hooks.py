"""Which hooks fire when a run is done, and the operation each one starts."""

from axonal_scheduler.domain.hooks import (
    Parent,
    fired_hooks,
    hook_operation,
    hook_run_uuid,
)
from axonal_spec import CompileOptions, compile_operation, load

PARENT = Parent(
    uuid="a" * 32,
    owner="acme",
    project="demo",
    status="failed",
    name="train",
    kind="job",
    reason="Error",
    message="exit code 1",
    inputs={"lr": 0.1},
    outputs={"loss": 7.5},
)


def names(hooks):
    return [hook.hub_ref for hook in hooks]


def test_a_hook_fires_on_its_trigger_and_done_or_no_trigger_means_any_final_status():
    hooks = [
        {"hubRef": "slack", "trigger": "failed", "connection": "team"},
        {"hubRef": "tensorboard", "trigger": "succeeded"},
        {"hubRef": "webhook", "trigger": "done"},
        {"hubRef": "discord"},
    ]
    assert names(fired_hooks(hooks, PARENT)[0]) == ["slack", "webhook", "discord"]
    succeeded = Parent(uuid="b" * 32, owner="acme", project="demo", status="succeeded")
    assert names(fired_hooks(hooks, succeeded)[0]) == ["tensorboard", "webhook", "discord"]


def test_conditions_read_the_parent_outputs_inputs_and_status():
    hooks = [
        {"hubRef": "slack", "conditions": "{{ loss > 5 }}"},
        {"hubRef": "discord", "conditions": "{{ loss < 5 }}"},
        {"hubRef": "teams", "conditions": "{{ globals.status == 'failed' and lr == 0.1 }}"},
    ]
    assert names(fired_hooks(hooks, PARENT)[0]) == ["slack", "teams"]


def test_defaults_carry_the_parent_context_unless_disabled_and_own_params_render_and_win():
    hooks = [
        {"hubRef": "slack", "connection": "team", "params": {"name": {"value": "custom"}}},
        {
            "hubRef": "tensorboard",
            "disableDefaults": True,
            "params": {"uuid": {"value": "{{ globals.uuid }}"}, "note": "loss {{ loss }}"},
        },
    ]
    (notify, board), _ = fired_hooks(hooks, PARENT)
    assert notify.connection == "team"
    assert notify.params == {
        "uuid": PARENT.uuid,
        "kind": "job",
        "name": "custom",
        "inputs": {"lr": 0.1},
        "outputs": {"loss": 7.5},
        "status": "failed",
        "condition": {"type": "failed", "reason": "Error", "message": "exit code 1"},
    }
    assert board.params == {"uuid": PARENT.uuid, "note": "loss 7.5"}


def test_a_hook_that_does_not_render_is_named_and_the_others_still_fire():
    hooks = [
        {"hubRef": "slack"},
        {"hubRef": "x", "conditions": "{{ nope > 1 }}", "connection": "ops"},
        {"hubRef": "y", "params": {"p": {"value": "{{ missing.deep }}"}}},
        {"hubRef": "z", "trigger": "succeeded", "conditions": "{{ nope > 1 }}"},  # not fired
        {"hubRef": "teams"},
    ]
    fired, failed = fired_hooks(hooks, PARENT)
    assert names(fired) == ["slack", "teams"]
    assert [(f.index, f.hub_ref, f.connection) for f in failed] == [(1, "x", "ops"), (2, "y", None)]
    assert "hooks[1]" in failed[0].error
    assert "hooks[2].params.p" in failed[1].error


def test_the_hook_operation_compiles_with_the_parent_values_as_inputs_or_context():
    [hook], _ = fired_hooks([{"hubRef": "slack", "connection": "team"}], PARENT)
    compiled = compile_operation(load(hook_operation(hook.hub_ref, hook.params, "urgent")),
                                 CompileOptions(uuid="c" * 32))  # fmt: skip
    inputs = {io.name: io.value for io in compiled.inputs}
    assert inputs["uuid"] == PARENT.uuid
    assert inputs["status"] == "failed"
    assert compiled.context_params["outputs"] == {"loss": 7.5}
    assert compiled.queue == "urgent"


def test_a_redelivered_hook_request_names_the_same_run():
    assert hook_run_uuid("event-1") == hook_run_uuid("event-1") != hook_run_uuid("event-2")
