"""Offline evaluation: an experiment the unmodified Langfuse SDK ran, judged afterwards by a
rule's evaluator (through the LLM provider double): one job per item, each an EVAL score on
its trace; asking again judges nothing twice."""

from __future__ import annotations

import uuid

from axonal_testing.llm_double import llm_double
from axonal_testing.waiting import wait_for_sync

from .conftest import LangfuseServer

EXPERIMENT = r"""
import json, sys
from langfuse import Langfuse

tag = sys.argv[1]
lf = Langfuse()
lf.create_dataset(name=f"offline-{tag}")
for country, capital in (("France", "Paris SCORE=1"), ("Japan", "Tokio SCORE=0")):
    lf.create_dataset_item(dataset_name=f"offline-{tag}", id=f"{country}-{tag}",
                           input={"country": country}, expected_output=capital)
answers = {"France": "Paris SCORE=1", "Japan": "Tokio SCORE=0"}
def task(*, item, **kwargs):
    return answers[item.input["country"]]

result = lf.get_dataset(f"offline-{tag}").run_experiment(
    name="capitals", run_name=f"run-{tag}", task=task
)
lf.flush()
lf.shutdown()
print(json.dumps({"run_id": result.experiment_id,
                  "traces": sorted(r.trace_id for r in result.item_results)}))
"""


def test_a_rule_judges_every_item_of_an_experiment_once(langfuse: LangfuseServer):
    stack, on = langfuse.stack, ["-p", "acme/llm"]
    tag = uuid.uuid4().hex[:8]
    ran = langfuse.run_sdk(EXPERIMENT, tag)
    name = f"offline-{tag}"

    def linked() -> dict | None:
        reply = langfuse.http.get(f"/api/public/datasets/{name}/runs/run-{tag}")
        found = reply.json() if reply.status_code == 200 else None
        return found if found and len(found["datasetRunItems"]) == 2 else None

    run = wait_for_sync(linked, timeout=60, message="the experiment's run linked")
    assert run["id"] == ran["run_id"]
    with llm_double() as double:
        reply = langfuse.http.put(
            "/api/public/llm-connections",
            json={"provider": f"offline-{tag}", "adapter": "openai", "secretKey": "sk-1234",
                  "baseURL": double.base_url},
        )  # fmt: skip
        assert reply.status_code == 200, reply.text
        template, rule = f"capital-{tag}", f"capitals-{tag}"
        prompt = "Is {{answer}} the capital asked in {{question}}?"
        stack.cli_json("evals", "templates", "create", template, "--prompt", prompt, *on)
        stack.cli_json(
            "evals", "rules", "create", rule, "--template", template, "--connection",
            f"offline-{tag}", "--model", "gpt-judge", "--name", "no-new-trace-is-named-so",
            "--var", "question=input", "--var", "answer=output", *on,
        )  # fmt: skip
        made = stack.cli_json("evals", "rules", "run", rule, "--dataset-run", run["id"], *on)
        assert (made["items"], made["created"], len(made["job_ids"])) == (2, 2, 2)

        def judged() -> list[dict] | None:
            jobs = stack.cli_json("evals", "jobs", "ls", "--rule", rule, *on)
            done = [j for j in jobs if j["state"] in ("succeeded", "failed")]
            return jobs if len(done) == 2 else None

        jobs = wait_for_sync(judged, timeout=90, message="both items judged")
        again = stack.cli_json("evals", "rules", "run", rule, "--dataset-run", run["id"], *on)
    assert {j["state"] for j in jobs} == {"succeeded"}, jobs
    assert sorted(j["score_value"] for j in jobs) == [0.0, 1.0]
    assert {j["trace_id"] for j in jobs} == set(ran["traces"])
    assert (again["created"], sorted(again["job_ids"])) == (0, sorted(made["job_ids"]))
    for trace_id in ran["traces"]:
        trace = langfuse.trace(trace_id, scores=1)
        assert [(s["name"], s["source"]) for s in trace["scores"]] == [(template, "EVAL")]
    missing = stack.cli("evals", "rules", "run", rule, "--dataset-run", "nope", *on)
    assert missing.returncode != 0
    assert "Dataset run not found: 'nope'" in " ".join((missing.stdout + missing.stderr).split())
