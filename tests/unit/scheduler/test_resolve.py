"""Late values of DAG and matrix children: refs, matrix points, conditions, templates."""

import pytest

from axonal_scheduler.domain.env import env_names, env_values, op_env_names
from axonal_scheduler.domain.resolve import UnresolvedError, Upstream, resolve, resolve_matrix
from axonal_spec import compile_operation, load

DAG = """
version: 1.1
kind: operation
component:
  run:
    kind: dag
    operations:
      - name: a
        component:
          outputs: [{name: loss, type: float}]
          run: {kind: job, container: {image: python, command: [echo, a]}}
      - name: b
        params:
          x: {ref: ops.a, value: outputs.loss}
          who: {ref: ops.a, value: globals.uuid}
        conditions: "{{ x > 0 }}"
        component:
          inputs: [{name: x, type: float}, {name: who, type: str}]
          run: {kind: job, container: {image: python, command: [echo, "{{ x }}", "{{ who }}"]}}
"""


def op_b():
    compiled = compile_operation(load(DAG)).model_dump(mode="json")
    return compiled["operations"][1]


def upstream(loss):
    return {"a": Upstream("u-a", "a", "succeeded", {}, {"loss": loss})}


def run(compiled, values, ops):
    return resolve(compiled, values, ops, uuid="b" * 32, owner="o", project="p", name="b")


def test_ref_outputs_render_the_kept_templates():
    resolved = run(op_b(), {}, upstream(0.5))
    assert not resolved.skip
    assert resolved.run["container"]["command"] == ["echo", 0.5, "u-a"]
    assert resolved.inputs["x"] == 0.5


def test_false_conditions_skip():
    assert run(op_b(), {}, upstream(-1.0)).skip


def test_missing_output_is_an_error():
    ops = {"a": Upstream("u-a", "a", "succeeded", {}, {})}
    with pytest.raises(UnresolvedError, match=r"no value 'outputs\.loss'"):
        run(op_b(), {}, ops)
    with pytest.raises(UnresolvedError, match="no op named"):
        run(op_b(), {}, {})


def test_matrix_point_values():
    text = """
version: 1.1
kind: operation
matrix: {kind: grid, params: {lr: {kind: choice, value: [0.1, 0.2]}}}
component:
  inputs: [{name: lr, type: float}]
  run: {kind: job, container: {image: python, command: ["lr={{ lr }}"]}}
"""
    compiled = compile_operation(load(text)).model_dump(mode="json")
    resolved = run(compiled, {"lr": 0.2}, {})
    assert resolved.run["container"]["command"] == ["lr=0.2"]
    with pytest.raises(UnresolvedError, match="'lr' has no value"):
        run(compiled, {}, {})


def test_to_env_names_and_values():
    doc = load(
        """
version: 1.1
kind: operation
params:
  lr: {value: 0.1, toEnv: LR}
component:
  inputs: [{name: lr, type: float}, {name: tag, type: str, value: x, isOptional: true, toEnv: TAG}]
  run: {kind: job, container: {image: python}}
"""
    ).to_dict()
    names = env_names(doc)
    assert names == {"lr": "LR", "tag": "TAG"}
    assert env_values(names, {"lr": 0.1, "tag": "x"}) == {"LR": "0.1", "TAG": "x"}
    assert op_env_names(load(DAG).to_dict()) == {"a": {}, "b": {}}


SWEEP_DAG = """
version: 1.1
kind: operation
component:
  inputs: [{name: max_loss, type: float, value: 0.01, isOptional: true}]
  run:
    kind: dag
    operations:
      - name: a
        component:
          outputs: [{name: loss, type: float}]
          run: {kind: job, container: {image: python, command: [echo, a]}}
      - name: tune
        params:
          upstream_loss: {ref: ops.a, value: outputs.loss, contextOnly: true}
          max_loss: {ref: dag, value: inputs.max_loss, contextOnly: true}
          seed: {ref: ops.a, value: outputs.loss}
        conditions: "{{ upstream_loss > max_loss }}"
        matrix: {kind: grid, params: {lr: {kind: choice, value: [0.1, 0.2]}}}
        component:
          inputs: [{name: lr, type: float}, {name: seed, type: float}]
          run: {kind: job, container: {image: python, command: ["{{ lr }}", "{{ seed }}"]}}
"""


def op_tune():
    compiled = compile_operation(load(SWEEP_DAG)).model_dump(mode="json")
    return compiled["operations"][1]


def test_a_matrix_op_resolves_its_refs_and_conditions_for_its_trials():
    tune = resolve_matrix(op_tune(), upstream(0.5), uuid="t" * 32, owner="o", project="p", name="t")
    assert tune is not None
    assert tune["conditions"] is None
    assert [d["name"] for d in tune["deferred"]] == ["lr"]
    assert tune["context_params"]["upstream_loss"] == 0.5
    # A trial (no DAG ops in its own pipeline) renders with a matrix point only.
    trial = run({**tune, "matrix": None}, {"lr": 0.2}, {})
    assert trial.run["container"]["command"] == [0.2, 0.5]


def test_a_matrix_op_whose_conditions_are_false_is_skipped():
    ctx = {"uuid": "t" * 32, "owner": "o", "project": "p", "name": "t"}
    assert resolve_matrix(op_tune(), upstream(0.001), **ctx) is None
    with pytest.raises(UnresolvedError, match="no op named"):
        resolve_matrix(op_tune(), {}, **ctx)


def test_a_resolved_context_only_ref_wins_over_its_compiled_default():
    tune = {**op_tune(), "matrix": None}
    assert run(tune, {"lr": 0.1}, upstream(0.5)).skip is False
    assert run(tune, {"lr": 0.1}, upstream(0.001)).skip is True


def test_a_service_child_keeps_its_port_and_base_url_for_the_executor():
    text = DAG.replace(
        'run: {kind: job, container: {image: python, command: [echo, "{{ x }}", "{{ who }}"]}}',
        "run: {kind: service, ports: [8000], container: {image: python, command: "
        '[serve, "{{ x }}", "--port={{ globals.ports[0] }}", "{{ globals.base_url }}"]}}',
    )
    compiled = compile_operation(load(text)).model_dump(mode="json")["operations"][1]
    resolved = run(compiled, {}, upstream(0.5))
    assert resolved.run["container"]["command"] == [
        "serve",
        0.5,
        "--port={{ globals.ports[0] }}",
        "{{ globals.base_url }}",
    ]
