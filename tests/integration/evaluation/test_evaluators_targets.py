"""A rule on observations, its template a registry prompt, its jobs delayed: the judge reads
the observation (and its trace) once the delay is over, and scores the observation."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta

from axonal_bus import rpc
from axonal_db import connect
from axonal_evaluation.app import build_app
from axonal_evaluation.settings import EvaluationSettings
from axonal_events.evaluators import CreateEvalRule, CreateEvalTemplate, ListEvalJobs
from axonal_events.prompts import CreatePrompt
from axonal_events.rpcs import Evaluation, Registry
from axonal_events.traces import ObservationRecord, ObservationType, TraceBatch, TraceRecord
from axonal_registry.app import build_app as build_registry
from axonal_registry.settings import RegistrySettings
from axonal_testing.llm_double import llm_double
from axonal_testing.waiting import wait_for
from axonal_tracking.app import build_app as build_tracking
from axonal_tracking.settings import TrackingSettings

from .evaluators_setup import PROJECT, PROJECT_ID, judge_rule

JUDGE_PROMPT = "User {{user}} asked {{question}}; the model said {{answer}}. SCORE=0.3"


async def test_an_observation_rule_with_a_registry_prompt_and_a_delay(
    service_settings, running_service, nats_client, database_url
):
    await running_service(build_tracking(service_settings(TrackingSettings)))
    await running_service(build_registry(service_settings(RegistrySettings)))
    settings = service_settings(EvaluationSettings)
    await running_service(build_app(settings))
    nc, subjects = nats_client, settings.subjects
    prompt = CreatePrompt(project_id=PROJECT_ID, project=PROJECT, name="judges/generation",
                          prompt=JUDGE_PROMPT, labels=["production"])  # fmt: skip
    await rpc.call(nc, subjects, Registry.create_prompt, prompt)
    with llm_double() as double:
        await judge_rule(nc, subjects, double.base_url)  # the connection and a trace rule
        template = CreateEvalTemplate(
            project_id=PROJECT_ID, name="quality", prompt_name="judges/generation"
        )
        await rpc.call(nc, subjects, Evaluation.create_eval_template, template)
        rule = CreateEvalRule(
            project_id=PROJECT_ID, project=PROJECT, name="generations", template="quality",
            connection="judge", model="gpt-judge", target="observation",
            filter={"types": ["GENERATION"], "names": ["llm"]},
            mapping={"user": "trace.user_id", "question": "input.messages[0].content",
                     "answer": "output"},
            delay_seconds=1.0,
        )  # fmt: skip
        created = await rpc.call(nc, subjects, Evaluation.create_eval_rule, rule)
        now = datetime.now(UTC)
        trace_id = uuid.uuid4().hex
        llm, span = uuid.uuid4().hex[:16], uuid.uuid4().hex[:16]
        batch = TraceBatch(
            project_id=PROJECT_ID, project=PROJECT, received_at=now,
            traces=[TraceRecord(id=trace_id, event_time=now, name="agent", user_id="ada")],
            observations=[
                ObservationRecord(id=llm, trace_id=trace_id, type=ObservationType.GENERATION,
                                  event_time=now, name="llm", start_time=now,
                                  input={"messages": [{"role": "user", "content": "2+2?"}]},
                                  output="4", model="gpt-4o"),
                ObservationRecord(id=span, trace_id=trace_id, event_time=now, name="llm",
                                  start_time=now),
            ],
        )  # fmt: skip
        await nc.jetstream().publish(
            subjects.ingest(f"traces.{PROJECT_ID}"),
            batch.model_dump_json(exclude_none=True).encode(),
            headers={"Nats-Msg-Id": trace_id},
        )
        query = ListEvalJobs(project_id=PROJECT_ID, rule_id=created.id)

        async def done():
            jobs = (await rpc.call(nc, subjects, Evaluation.list_eval_jobs, query)).data
            return jobs if jobs and jobs[0].state == "succeeded" else None

        (job,) = await wait_for(done, timeout=30, message="the generation judged")
        prompt_sent = double.requests[-1].body["messages"][0]["content"]
    assert job.observation_id == llm
    assert job.score_value == 0.3
    assert job.due_at - job.created_at >= timedelta(seconds=0.9)  # from the event's arrival
    assert job.updated_at >= job.due_at, "judged only once the delay was over"
    assert prompt_sent == "User ada asked 2+2?; the model said 4. SCORE=0.3"
    conn = await connect(database_url)

    async def stored():
        return await conn.fetchrow(
            "SELECT name, observation_id, source FROM tracking.scores WHERE project_id = $1",
            PROJECT_ID,
        )

    score = await wait_for(stored, timeout=20, message="the score stored")
    await conn.close()
    assert dict(score) == {"name": "quality", "observation_id": llm, "source": "EVAL"}
