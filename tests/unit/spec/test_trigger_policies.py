"""Each of the six trigger policies is accepted and carried to the compiled DAG operation."""

import pytest

from axonal_spec.compiler import compile_operation
from axonal_spec.models import TriggerPolicy
from axonal_spec.parsing import load

POLICIES = ["all_succeeded", "all_failed", "all_done", "one_succeeded", "one_failed", "one_done"]

DAG = """
kind: component
run:
  kind: dag
  operations:
  - name: a
    component: {{run: {{kind: job, container: {{image: busybox}}}}}}
  - name: b
    dependencies: [a]
    trigger: {policy}
    component: {{run: {{kind: job, container: {{image: busybox}}}}}}
"""


def test_the_enum_is_exactly_the_six_policies():
    assert sorted(p.value for p in TriggerPolicy) == sorted(POLICIES)


@pytest.mark.parametrize("policy", POLICIES)
def test_policy_is_kept_on_the_downstream_op(policy):
    compiled = compile_operation(load(DAG.format(policy=policy)))
    ops = {op.name: op for op in compiled.operations or []}
    assert ops["b"].trigger == policy
    assert ops["a"].trigger is None  # unset: the scheduler applies all_succeeded
    assert compiled.upstream == {"a": [], "b": ["a"]}
