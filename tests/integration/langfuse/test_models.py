"""Model definitions through the unmodified Langfuse SDK: created, listed after being read
back, used to price the project's generations, deleted; bad definitions refused."""

from __future__ import annotations

import json

import pytest

from .conftest import LangfuseServer

SDK_SCRIPT = r"""
import json
from datetime import datetime, timezone
from langfuse import Langfuse
from langfuse.api import PricingTierInput, PricingTierUsageConditionInput

lf = Langfuse()
flat = lf.api.models.create(
    model_name="ft-support", match_pattern="(?i)^ft:gpt-4o-mini:acme:support$", unit="TOKENS",
    input_price=1e-6, output_price=2e-6, tokenizer_id="openai",
    tokenizer_config={"tokenizerModel": "gpt-4o-mini"},
)
tiered = lf.api.models.create(
    model_name="acme-long", match_pattern="^acme-long$", unit="TOKENS",
    start_date=datetime(2020, 1, 1, tzinfo=timezone.utc),
    pricing_tiers=[
        PricingTierInput(name="Standard", is_default=True, priority=0, conditions=[],
                         prices={"input": 1e-6, "output": 1e-5}),
        PricingTierInput(name="Long context", is_default=False, priority=1,
                         conditions=[PricingTierUsageConditionInput(
                             usage_detail_pattern="^input", operator="gt", value=200000)],
                         prices={"input": 2e-6, "output": 2e-5}),
    ],
)
listed = lf.api.models.list(limit=200)
fetched = lf.api.models.get(flat.id)
with lf.start_as_current_observation(name="ask", as_type="generation",
                                     model="ft:gpt-4o-mini:acme:support",
                                     usage_details={"input": 1000, "output": 100}) as g1:
    trace_id = lf.get_current_trace_id()
    with lf.start_as_current_observation(name="long", as_type="generation", model="acme-long",
                                         usage_details={"input": 300000, "output": 10}):
        pass
    with lf.start_as_current_observation(name="short", as_type="generation", model="acme-long",
                                         usage_details={"input": 1000, "output": 10}):
        pass
lf.shutdown()
print(json.dumps({
    "trace_id": trace_id,
    "flat": flat.dict(by_alias=True), "tiered": tiered.dict(by_alias=True),
    "fetched_id": fetched.id,
    "listed": [(m.id, m.model_name, m.is_langfuse_managed) for m in listed.data],
    "total_items": listed.meta.total_items,
}, default=str))
"""

# Generations are priced when the tracking service ingests them, after the SDK's flush has
# returned: the definition is deleted once the trace is stored, or it may price nothing.
DELETE_SCRIPT = r"""
import json, sys
from langfuse import Langfuse

lf = Langfuse()
lf.api.models.delete(sys.argv[1])
print(json.dumps({"after": [m.id for m in lf.api.models.list(limit=200).data]}))
"""


def test_definitions_made_with_the_sdk_price_the_projects_generations(langfuse: LangfuseServer):
    out = langfuse.run_sdk(SDK_SCRIPT)
    flat, tiered = out["flat"], out["tiered"]
    assert (flat["modelName"], flat["unit"], flat["isLangfuseManaged"]) == (
        "ft-support",
        "TOKENS",
        False,
    )
    assert (flat["inputPrice"], flat["outputPrice"], flat["totalPrice"]) == (1e-6, 2e-6, None)
    assert flat["prices"] == {"input": {"price": 1e-6}, "output": {"price": 2e-6}}
    assert (flat["tokenizerId"], flat["tokenizerConfig"]) == (
        "openai",
        {"tokenizerModel": "gpt-4o-mini"},
    )
    assert [t["name"] for t in tiered["pricingTiers"]] == ["Standard", "Long context"]
    condition = tiered["pricingTiers"][1]["conditions"][0]
    assert (condition["usageDetailPattern"], condition["operator"], condition["value"]) == (
        "^input",
        "gt",
        200000,
    )
    assert out["fetched_id"] == flat["id"]

    listed = out["listed"]
    assert [name for _, name, _ in listed[:2]] == ["acme-long", "ft-support"]  # newest first
    assert all(managed for _, _, managed in listed[2:])  # then the shipped ones
    assert "shipped-gpt-4o" in [model_id for model_id, _, _ in listed]
    assert out["total_items"] == len(listed)

    trace = langfuse.trace(out["trace_id"], observations=3)
    after = langfuse.run_sdk(DELETE_SCRIPT, tiered["id"])["after"]
    assert tiered["id"] not in after
    assert flat["id"] in after
    by_name = {o["name"]: o for o in trace["observations"]}
    assert by_name["ask"]["costDetails"]["total"] == pytest.approx(1000 * 1e-6 + 100 * 2e-6)
    assert by_name["long"]["costDetails"]["input"] == pytest.approx(300000 * 2e-6)
    assert by_name["short"]["costDetails"]["input"] == pytest.approx(1000 * 1e-6)


@pytest.mark.parametrize(
    ("body", "reason"),
    [
        ({"modelName": "m", "matchPattern": "(unclosed", "inputPrice": 1}, "match_pattern"),
        ({"modelName": "m", "matchPattern": "^m$"}, "a model needs prices"),
        (
            {
                "modelName": "m",
                "matchPattern": "^m$",
                "pricingTiers": [{"name": "a", "priority": 1, "conditions": [], "prices": {}}],
            },
            "tiers.0.prices",
        ),
        ({"modelName": "m", "matchPattern": "^m$", "inputPrice": -1}, "greater than or equal"),
        (
            {"modelName": "m", "matchPattern": "^m$", "inputPrice": 1, "tokenizerId": "claude"},
            "tokenizerId",
        ),
    ],
)
def test_bad_definitions_are_refused_with_the_reason(langfuse: LangfuseServer, body, reason):
    reply = langfuse.http.post("/api/public/models", json=body)
    assert reply.status_code in (400, 422), reply.text
    assert reason in reply.text


def test_shipped_definitions_cannot_be_deleted_and_unknown_ones_are_not_found(
    langfuse: LangfuseServer,
):
    shipped = langfuse.http.delete("/api/public/models/shipped-gpt-4o")
    assert shipped.status_code == 400
    assert "shipped with Axonal and cannot be deleted" in shipped.text
    assert langfuse.http.get("/api/public/models/nope").status_code == 404
    assert langfuse.http.delete("/api/public/models/nope").status_code == 404
    got = langfuse.get("/api/public/models/shipped-gpt-4o")
    assert (got["modelName"], got["isLangfuseManaged"]) == ("gpt-4o", True)


def test_the_cli_defines_lists_and_deletes_a_projects_model(langfuse: LangfuseServer):
    cli = langfuse.stack.cli
    prices = ["--input", "3", "--output", "15", "--price", "input_audio=40"]
    made = cli(
        "llm-models", "create", "acme-cli", "--match", "^acme-cli$", *prices,
        "-p", "acme/llm", "--json",
    )  # fmt: skip
    assert made.returncode == 0, made.stderr
    created = json.loads(made.stdout)
    assert created["tiers"][0]["prices"] == pytest.approx(
        {"input": 3e-6, "output": 15e-6, "input_audio": 40e-6}
    )
    listed = cli("llm-models", "ls", "--own", "-p", "acme/llm", "--json")
    assert created["id"] in [m["id"] for m in json.loads(listed.stdout)]
    table = cli("llm-models", "ls", "-p", "acme/llm")
    assert "acme-cli" in table.stdout
    assert "$3" in table.stdout
    assert "shipped" in table.stdout
    gone = cli("llm-models", "rm", created["id"], "-p", "acme/llm")
    assert gone.returncode == 0, gone.stderr
    assert "deleted acme-cli" in gone.stdout
    bad = cli("llm-models", "create", "x", "--match", "^x$", "--price", "oops", "-p", "acme/llm")
    assert bad.returncode == 2
    assert "use TYPE=USD per 1M" in bad.stderr
