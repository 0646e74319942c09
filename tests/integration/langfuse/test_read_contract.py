"""Every public read answer parsed by the Langfuse SDK's own models (or, for the reads its
installed version has no client for, Langfuse's own OpenAPI schemas), field group by group."""

from __future__ import annotations

import json
import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from langfuse.api.commons.types.observation_v2 import ObservationV2
from langfuse.api.core.pydantic_utilities import parse_obj_as
from langfuse.api.health.types.health_response import HealthResponse
from langfuse.api.models.types.paginated_models import PaginatedModels
from langfuse.api.observations.types.observations_v2response import ObservationsV2Response
from langfuse.api.projects.types.projects import Projects
from langfuse.api.scores.types.get_scores_v3response import GetScoresV3Response
from openapi_schema_validator import OAS30Validator

from axonal_testing.conformance import project_fixtures

from .conftest import LangfuseServer

# The groups as Langfuse documents them (the SDK's ``observations.get_many``), written out here
# so that a field the api misnames or leaves out fails.
GROUPS = {
    "core": {"id", "traceId", "startTime", "endTime", "projectId", "parentObservationId", "type"},
    "basic": {
        "name",
        "level",
        "statusMessage",
        "version",
        "environment",
        "bookmarked",
        "public",
        "userId",
        "sessionId",
        "isRootObservation",
    },
    "time": {"completionStartTime", "createdAt", "updatedAt"},
    "io": {"input", "output"},
    "metadata": {"metadata"},
    "model": {"model", "internalModelId", "modelParameters"},
    "usage": {"usageDetails", "costDetails", "totalCost", "usagePricingTierName"},
    "prompt": {"promptId", "promptName", "promptVersion"},
    "metrics": {"latency", "timeToFirstToken"},
    "trace_context": {"tags", "release", "traceName"},
}
ENRICHMENT = {"modelId", "inputPrice", "outputPrice", "totalPrice"}  # always sent by Langfuse
T0 = datetime.now(UTC) - timedelta(minutes=5)


def _at(seconds: float) -> str:
    return (T0 + timedelta(seconds=seconds)).isoformat()


def _batch(trace_id: str, session_id: str, ids: dict[str, str]) -> dict[str, Any]:
    def event(kind: str, body: dict[str, Any]) -> dict[str, Any]:
        return {"id": uuid.uuid4().hex, "type": kind, "timestamp": _at(9), "body": body}

    trace, root, gen = trace_id, ids["root"], ids["gen"]
    return {
        "batch": [
            event(
                "trace-create",
                {
                    "id": trace,
                    "timestamp": _at(0),
                    "name": "contract-qa",
                    "userId": "user-c",
                    "sessionId": session_id,
                    "tags": ["contract"],
                    "release": "rel-9",
                    "input": {"q": "2+2?"},
                },
            ),
            event(
                "span-create",
                {"id": root, "traceId": trace, "name": "root", "startTime": _at(0)},
            ),
            event(
                "generation-create",
                {
                    "id": gen,
                    "traceId": trace,
                    "parentObservationId": root,
                    "name": "answer",
                    "startTime": _at(1),
                    "completionStartTime": _at(1.5),
                    "endTime": _at(3),
                    "model": "gpt-4o-mini",
                    "modelParameters": {"temperature": 0},
                    "input": [{"role": "user", "content": "2+2?"}],
                    "output": 4,
                    "metadata": {"long": "x" * 300, "short": "ok"},
                    "usageDetails": {"input": 1000, "output": 500},
                    "promptName": "qa-prompt",
                    "promptVersion": 2,
                },
            ),
            event("score-create", {"traceId": trace, "name": "exact", "value": 0.5}),
            event(
                "score-create",
                {
                    "traceId": trace,
                    "observationId": gen,
                    "name": "ok",
                    "value": 1,
                    "dataType": "BOOLEAN",
                    "comment": "fine",
                },
            ),
            event(
                "score-create",
                {"traceId": trace, "name": "tone", "value": "calm", "dataType": "CATEGORICAL"},
            ),
        ]
    }


@pytest.fixture(scope="module")
def written(langfuse: LangfuseServer) -> dict[str, str]:
    trace_id, session_id = uuid.uuid4().hex, f"sess-{uuid.uuid4().hex[:8]}"
    ids = {"root": uuid.uuid4().hex[:16], "gen": uuid.uuid4().hex[:16]}
    reply = langfuse.http.post("/api/public/ingestion", json=_batch(trace_id, session_id, ids))
    assert reply.status_code == 207, reply.text
    assert not reply.json()["errors"]
    langfuse.trace(trace_id, observations=2, scores=3)
    return {"trace": trace_id, "session": session_id, **ids}


def _openapi(name: str, document: Any) -> None:
    """``document`` valid against Langfuse's own OpenAPI schema ``name``."""
    schemas = json.loads(
        (project_fixtures() / "langfuse" / "langfuse-read-schemas.json").read_text()
    )
    root = {"$ref": f"#/components/schemas/{name}", "components": {"schemas": schemas["schemas"]}}
    errors = [e.message for e in OAS30Validator(root).iter_errors(document)]
    assert not errors, (name, errors[:3])


def _observations(langfuse: LangfuseServer, **params: Any) -> tuple[dict[str, Any], Any]:
    reply = langfuse.get("/api/public/v2/observations", **params)
    return reply, parse_obj_as(ObservationsV2Response, reply)


@pytest.mark.parametrize("group", list(GROUPS))
def test_each_observation_group_parses_and_holds_exactly_its_fields(
    langfuse: LangfuseServer, written: dict[str, str], group: str
):
    reply, parsed = _observations(langfuse, traceId=written["trace"], fields=f"core,{group}")
    assert len(parsed.data) == 2
    for item in reply["data"]:
        assert set(item) == GROUPS["core"] | GROUPS[group] | ENRICHMENT


def test_the_default_groups_are_core_and_basic(langfuse: LangfuseServer, written):
    reply, _ = _observations(langfuse, traceId=written["trace"])
    assert {frozenset(item) for item in reply["data"]} == {
        frozenset(GROUPS["core"] | GROUPS["basic"] | ENRICHMENT)
    }


def test_observation_values_in_every_group(langfuse: LangfuseServer, written):
    every = ",".join(GROUPS)
    _, parsed = _observations(langfuse, traceId=written["trace"], fields=every)
    generation: ObservationV2 = next(o for o in parsed.data if o.id == written["gen"])
    assert generation.total_cost == pytest.approx(0.00045)
    assert generation.cost_details == pytest.approx(
        {"input": 0.00015, "output": 0.0003, "total": 0.00045}
    )
    assert generation.usage_details == {"input": 1000, "output": 500, "total": 1500}
    assert (generation.user_id, generation.session_id) == ("user-c", written["session"])
    assert (generation.trace_name, generation.tags, generation.release) == (
        "contract-qa",
        ["contract"],
        "rel-9",
    )
    assert (generation.output, generation.input) == ("4", '[{"role":"user","content":"2+2?"}]')
    assert generation.metadata == {"long": "x" * 200, "short": "ok"}
    assert (generation.latency, generation.time_to_first_token) == (2.0, 0.5)
    assert (generation.prompt_name, generation.prompt_version) == ("qa-prompt", 2)
    assert generation.model == "gpt-4o-mini"
    assert generation.internal_model_id == generation.model_id == "shipped-gpt-4o-mini"
    assert (generation.input_price, generation.output_price) == ("0.00000015", "0.0000006")
    assert generation.usage_pricing_tier_name == "default"
    assert generation.is_root_observation is False
    root = next(o for o in parsed.data if o.id == written["root"])
    assert root.is_root_observation is True
    expanded, _ = _observations(
        langfuse, traceId=written["trace"], fields="metadata", expandMetadata="long"
    )
    assert {o["id"]: o["metadata"] for o in expanded["data"]}[written["gen"]]["long"] == "x" * 300


def test_observation_cursor_pages_cover_every_observation_once(langfuse, written):
    seen, cursor = [], None
    while True:
        params = {"traceId": written["trace"], "limit": 1} | ({"cursor": cursor} if cursor else {})
        reply, parsed = _observations(langfuse, **params)
        seen += [o.id for o in parsed.data]
        cursor = parsed.meta.cursor
        if cursor is None:
            assert "cursor" not in reply["meta"]
            break
    assert sorted(seen) == sorted([written["root"], written["gen"]])
    bad = langfuse.http.get("/api/public/v2/observations", params={"cursor": "not-a-cursor"})
    assert bad.status_code == 400
    for refused in ({"parseIoAsJson": "true"}, {"filter": "[]"}):
        reply = langfuse.http.get("/api/public/v2/observations", params=refused)
        assert reply.status_code == 400
        assert reply.json()["error"] == "InvalidRequestError"


def test_v3_scores_parse_with_their_groups(langfuse: LangfuseServer, written):
    core = langfuse.get("/api/public/v3/scores", traceId=written["trace"], limit=2)
    parsed = parse_obj_as(GetScoresV3Response, core)
    assert parsed.meta.limit == 2
    assert parsed.meta.cursor is not None
    rest = langfuse.get(
        "/api/public/v3/scores", traceId=written["trace"], cursor=parsed.meta.cursor
    )
    assert "cursor" not in rest["meta"]
    full = langfuse.get(
        "/api/public/v3/scores", traceId=written["trace"], fields="details,subject,annotation"
    )
    scores = {s.name: s for s in parse_obj_as(GetScoresV3Response, full).data}
    assert (scores["exact"].value, scores["ok"].value, scores["tone"].value) == (0.5, True, "calm")
    assert scores["ok"].comment == "fine"
    assert scores["ok"].subject is not None
    assert (scores["ok"].subject.kind, scores["ok"].subject.id) == ("observation", written["gen"])
    assert {s["name"] for s in core["data"] + rest["data"]} == {"exact", "ok", "tone"}
    assert not {"comment", "subject", "queueId"} & set(core["data"][0])
    for refused in ({"fields": "trace"}, {"limit": 101}, {"observationId": written["gen"]}):
        assert langfuse.http.get("/api/public/v3/scores", params=refused).status_code == 400
    trace = written["trace"]
    label = langfuse.get(
        "/api/public/v3/scores", traceId=trace, dataType="categorical", value="calm"
    )
    assert [s["name"] for s in label["data"]] == ["tone"]
    named = langfuse.get("/api/public/v3/scores", traceId=f"{trace},other", name="exact, ok")
    assert {s["name"] for s in named["data"]} == {"exact", "ok"}
    on_gen = langfuse.get("/api/public/v3/scores", traceId=trace, observationId=written["gen"])
    assert [s["name"] for s in on_gen["data"]] == ["ok"]


def test_the_other_reads_parse_as_langfuse_answers_them(langfuse: LangfuseServer, written):
    trace_id, session_id = written["trace"], written["session"]
    _openapi("Traces", langfuse.get("/api/public/traces", sessionId=session_id))
    core = langfuse.get("/api/public/traces", sessionId=session_id, fields="core")
    _openapi("Traces", core)
    [only] = core["data"]
    assert (only["observations"], only["totalCost"], "input" in only) == ([], -1, False)
    detail = langfuse.get(f"/api/public/traces/{trace_id}")
    _openapi("TraceWithFullDetails", detail)
    assert detail["totalCost"] == pytest.approx(0.00045)
    priced = next(o for o in detail["observations"] if o["id"] == written["gen"])
    assert (priced["modelId"], priced["inputPrice"]) == ("shipped-gpt-4o-mini", 1.5e-07)
    _openapi("PaginatedSessions", langfuse.get("/api/public/sessions"))
    _openapi("SessionWithTraces", langfuse.get(f"/api/public/sessions/{session_id}"))
    listed = langfuse.get("/api/public/v2/scores", traceId=trace_id)
    _openapi("GetScoresResponse", listed)
    assert {s["name"]: s["value"] for s in listed["data"]} == {"exact": 0.5, "ok": 1, "tone": 0}
    assert listed["data"][0]["trace"] == {
        "userId": "user-c",
        "tags": ["contract"],
        "environment": "default",
        "sessionId": session_id,
    }
    bare = langfuse.get("/api/public/v2/scores", traceId=trace_id, fields="score")
    assert {s["trace"] for s in bare["data"]} == {None}
    v1 = langfuse.get("/api/public/observations", traceId=trace_id, limit=1, page=2)
    _openapi("legacyObservationsViews", v1)
    assert v1["meta"] == {"page": 2, "limit": 1, "totalItems": 2, "totalPages": 2}
    assert [o["id"] for o in v1["data"]] == [written["root"]]  # newest first
    one = langfuse.get(f"/api/public/observations/{written['gen']}")
    _openapi("ObservationsViewSingle", one)
    assert (one["calculatedTotalCost"], one["traceId"]) == (pytest.approx(0.00045), trace_id)
    assert langfuse.http.get("/api/public/observations/nope").status_code == 404
    parse_obj_as(Projects, langfuse.get("/api/public/projects"))
    parse_obj_as(PaginatedModels, langfuse.get("/api/public/models"))
    parse_obj_as(HealthResponse, langfuse.get("/api/public/health"))


def test_a_schema_check_fails_on_a_missing_field(langfuse: LangfuseServer, written):
    detail = langfuse.get(f"/api/public/traces/{written['trace']}")
    del detail["observations"][0]["modelId"]
    with pytest.raises(AssertionError):
        _openapi("TraceWithFullDetails", detail)


def test_v2_scores_compare_values_and_match_trace_tags(langfuse: LangfuseServer, written):
    trace_id = written["trace"]

    def names(**params: Any) -> set[str]:
        listed = langfuse.get("/api/public/v2/scores", traceId=trace_id, **params)
        _openapi("GetScoresResponse", listed)
        return {s["name"] for s in listed["data"]}

    assert names(operator=">", value=0.5) == {"ok"}
    assert names(operator=">=", value=0.5) == {"exact", "ok"}
    assert names(operator="!=", value=0) == {"exact", "ok"}
    assert names(operator="<", value=1) == {"exact"}
    assert names(operator="=", value=1) == {"ok"}
    assert names(traceTags="contract") == {"exact", "ok", "tone"}
    assert names(traceTags=["contract", "elsewhere"]) == set()
    for params, field in (
        ({"operator": ">"}, "operator and value"),
        ({"operator": "~", "value": 1}, "operator"),
        ({"filter": "[]"}, "filter"),
    ):
        reply = langfuse.http.get("/api/public/v2/scores", params={"traceId": trace_id, **params})
        assert reply.status_code == 400, reply.text
        assert field in reply.json()["message"]


def test_traces_are_listed_in_the_order_asked_for(langfuse: LangfuseServer, written):
    def ordered(order_by: str) -> list[str]:
        listed = langfuse.get("/api/public/traces", orderBy=order_by, limit=100)
        _openapi("Traces", listed)
        return [t["timestamp"] for t in listed["data"]]

    oldest_first = ordered("timestamp.asc")
    assert len(oldest_first) >= 1
    assert oldest_first == sorted(oldest_first)
    assert ordered("timestamp.desc") == sorted(oldest_first, reverse=True)
    assert langfuse.get("/api/public/traces", orderBy="userId.asc", limit=100)["data"]
    for bad in ("timestamp", "colour.asc", "timestamp.up"):
        reply = langfuse.http.get("/api/public/traces", params={"orderBy": bad})
        assert reply.status_code == 400, reply.text
        assert "orderBy" in reply.json()["message"]
    reply = langfuse.http.get("/api/public/traces", params={"filter": "[]"})
    assert reply.status_code == 400
