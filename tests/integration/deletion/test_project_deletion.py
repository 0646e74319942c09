"""Deleting a project on every service at once (real NATS, PostgreSQL and S3): afterwards no
row of any table of any service schema names it, none of its objects is left in the artifact
store, and each service confirmed with ``deletion.completed`` exactly once. Another project's
data stays.

The walk reads every table PostgreSQL has in the service schemas, so a table added later is
checked without changing this test. A deleted project leaves only the records of its deletion:
the deletion events in the outbox and the audit trail.
"""

from __future__ import annotations

import hashlib
import json
import uuid
from datetime import UTC, datetime
from typing import Any

import pytest

from axonal_agent.app import build_app as build_agent
from axonal_agent.settings import AgentSettings
from axonal_bus import rpc
from axonal_bus.outbox import event_headers
from axonal_db import Connection, connect
from axonal_evaluation.app import build_app as build_evaluation
from axonal_evaluation.settings import EvaluationSettings
from axonal_events import RunStatus, StreamKind
from axonal_events.api_keys import CreateApiKeyRequest
from axonal_events.artifacts import ArtifactRecord, content_key
from axonal_events.datasets import CreateDataset
from axonal_events.identity import CreateProjectRequest, Project
from axonal_events.retention import DeleteProjectRequest, RetentionPolicy, SetRetentionRequest
from axonal_events.rpcs import Evaluation, Identity
from axonal_events.traces import ObservationRecord, ScoreRecord, TraceBatch, TraceRecord
from axonal_identity.app import build_app as build_identity
from axonal_identity.settings import IdentitySettings
from axonal_notifications.app import build_app as build_notifications
from axonal_notifications.settings import NotificationSettings
from axonal_optimization.app import build_app as build_optimization
from axonal_optimization.settings import OptimizationSettings
from axonal_registry.app import build_app as build_registry
from axonal_registry.settings import RegistrySettings
from axonal_scheduler.app import build_app as build_scheduler
from axonal_scheduler.settings import SchedulerSettings
from axonal_testing.bus import drained, read_stream
from axonal_testing.factories import run_event
from axonal_testing.waiting import wait_for
from axonal_tracking.app import build_app as build_tracking
from axonal_tracking.settings import TrackingSettings

SERVICES = (
    "identity",
    "scheduler",
    "agent",
    "tracking",
    "evaluation",
    "optimization",
    "registry",
    "notifications",
)
#: What a deleted project leaves: the records that it was deleted (ids only).
DELETION_SUBJECTS = ("%.evt.project.deleted", "%.evt.deletion.completed")
DELETION_TYPES = ["axonal.project.deleted", "axonal.deletion.completed"]


@pytest.fixture
def artifacts_url(s3_server, s3_bucket, monkeypatch) -> str:
    monkeypatch.setenv("AXONAL_S3_ENDPOINT_URL", s3_server.endpoint_url)
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", s3_server.access_key_id)
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", s3_server.secret_access_key)
    monkeypatch.setenv("AWS_DEFAULT_REGION", s3_server.region)
    return f"s3://{s3_bucket}/artifacts"


@pytest.fixture
async def platform(service_settings, running_service, artifacts_url, tmp_path) -> Any:
    """Every service that holds data, in-process on this test's namespace and database."""
    make = service_settings
    agent = make(
        AgentSettings,
        name="agent-deletion",
        work_root=tmp_path / "runs",
        artifacts_root=tmp_path / "artifacts",
    )
    for app in (
        build_identity(make(IdentitySettings)),
        build_scheduler(make(SchedulerSettings)),
        build_agent(agent),
        build_tracking(make(TrackingSettings, artifacts_url=artifacts_url)),
        build_evaluation(make(EvaluationSettings)),
        build_optimization(make(OptimizationSettings)),
        build_registry(make(RegistrySettings)),
        build_notifications(make(NotificationSettings)),
    ):
        await running_service(app)
    return make(IdentitySettings).subjects


async def seed(conn: Connection, table: str, **values: Any) -> None:
    """Insert a row into ``schema.table`` with ``values``; every other required column
    without a default gets a plain value of its type."""
    schema, name = table.split(".")
    required = await conn.fetch(
        "SELECT column_name, data_type FROM information_schema.columns WHERE table_schema = $1 "
        "AND table_name = $2 AND is_nullable = 'NO' AND column_default IS NULL",
        schema,
        name,
    )
    plain = {
        "text": "x",
        "integer": 1,
        "bigint": 1,
        "boolean": False,
        "double precision": 0.0,
        "jsonb": {},
        "timestamp with time zone": datetime.now(UTC),
        "uuid": uuid.uuid4(),
        "ARRAY": [],
    }
    row = {r["column_name"]: plain[r["data_type"]] for r in required} | values
    columns = ", ".join(row)
    places = ", ".join(f"${n}" for n in range(1, len(row) + 1))
    await conn.execute(f"INSERT INTO {table} ({columns}) VALUES ({places})", *row.values())


async def tables(conn: Connection) -> list[tuple[str, str]]:
    """Every table of every service schema."""
    rows = await conn.fetch(
        "SELECT n.nspname, c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
        "WHERE c.relkind IN ('r', 'p') AND n.nspname = ANY($1::text[]) ORDER BY 1, 2",
        list(SERVICES),
    )
    return [(r["nspname"], r["relname"]) for r in rows]


async def naming(conn: Connection, markers: list[str]) -> dict[str, int]:
    """Rows of every service table whose text holds one of ``markers``, by table (the records
    of a deletion left out)."""
    found = {}
    for schema, table in await tables(conn):
        kept = ""
        if table == "outbox":
            kept = "AND NOT (t.subject LIKE ANY($2::text[]))"
        elif (schema, table) == ("identity", "audit_log"):
            kept = "AND NOT (t.type = ANY($3::text[]))"
        count = await conn.fetchval(
            f"SELECT count(*) FROM {schema}.{table} t "
            f"WHERE EXISTS (SELECT 1 FROM unnest($1::text[]) m WHERE position(m IN t::text) > 0) "
            f"{kept} AND $2::text[] IS NOT NULL AND $3::text[] IS NOT NULL",
            markers,
            list(DELETION_SUBJECTS),
            DELETION_TYPES,
        )
        if count:
            found[f"{schema}.{table}"] = count
    return found


async def objects(s3_server, bucket: str) -> list[str]:
    async with s3_server.client() as s3:
        listed = await s3.list_objects_v2(Bucket=bucket)
    return sorted(o["Key"] for o in listed.get("Contents", []))


async def fill(js, subjects, conn, nc, s3_server, bucket, project: Project) -> dict[str, str]:
    """Data of ``project`` in every service, through its own flows where they are short, rows
    otherwise; the ids a leftover would name."""
    slug = f"{project.owner}/{project.name}"
    call = lambda method, request: rpc.call(nc, subjects, method, request)  # noqa: E731
    await call(Identity.create_api_key, CreateApiKeyRequest(project=slug))
    policy = RetentionPolicy(traces=30, logs=7)
    await call(
        Identity.set_retention,
        SetRetentionRequest(owner=project.owner, name=project.name, retention=policy),
    )
    await call(Evaluation.create_dataset, CreateDataset(project_id=project.id, name="qa"))

    created = run_event(RunStatus.CREATED, project=slug)
    await js.publish(
        subjects.event(created.event_type), created.to_json(), headers=event_headers(created)
    )
    run_uuid = str(created.data.run_uuid)  # type: ignore[attr-defined]
    at = datetime.now(UTC)
    points = [{"name": "loss", "step": s, "value": 0.5, "at": at.isoformat()} for s in range(50)]
    body = json.dumps({"run_uuid": run_uuid, "points": points}).encode()
    await js.publish(subjects.ingest(f"metrics.{run_uuid}"), body)

    trace_id = f"trace-{uuid.uuid4().hex}"
    batch = TraceBatch(
        project_id=project.id,
        project=slug,
        received_at=at,
        traces=[TraceRecord(id=trace_id, event_time=at, timestamp=at, session_id="s")],
        observations=[ObservationRecord(id=f"o-{trace_id}", trace_id=trace_id, event_time=at)],
        scores=[
            ScoreRecord(id=f"s-{trace_id}", event_time=at, name="q", value=1, trace_id=trace_id)
        ],
    )
    payload = batch.model_dump_json(exclude_none=True).encode()
    await js.publish(subjects.ingest(f"traces.{project.id}"), payload)

    data = f"weights of {slug}".encode()
    digest = hashlib.sha256(data).hexdigest()
    path = f"{slug}/{run_uuid}/model.bin"
    async with s3_server.client() as s3:  # as the api stores an upload
        for key in (path, content_key(slug, digest)):
            await s3.put_object(Bucket=bucket, Key=f"artifacts/{key}", Body=data)
    record = ArtifactRecord(
        run_uuid=run_uuid, project=slug, name="model", kind="model", path=path,
        size=len(data), sha256=digest, created_at=at,
    )  # fmt: skip
    await js.publish(subjects.ingest(f"artifacts.{run_uuid}"), record.model_dump_json().encode())

    await seed(conn, "scheduler.runs", uuid=run_uuid, owner=project.owner, project=project.name)
    await seed(conn, "scheduler.run_logs", run_uuid=run_uuid, attempt=1, seq=1, at=at)
    await seed(conn, "scheduler.automations", id=f"a-{run_uuid}", project=slug, name="a")
    await seed(conn, "agent.executions", run_uuid=run_uuid, attempt=1, project=slug)
    await seed(conn, "registry.models", project=slug, name="m")
    await seed(conn, "registry.artifact_versions", project=slug, run_uuid=run_uuid, sha256=digest)
    await seed(conn, "registry.prompts", project_id=project.id, name="p", version=1, type="text")
    await seed(conn, "optimization.studies", sweep_uuid=f"sw-{run_uuid}", owner=project.owner,
               project=project.name)  # fmt: skip
    await seed(conn, "notifications.webhooks", id=f"w-{run_uuid}", project=slug)
    return {"run": run_uuid, "trace": trace_id}


async def test_a_deleted_project_leaves_no_row_and_no_object_in_any_service(
    platform, nats_client, database_url, s3_server, s3_bucket
):
    subjects, js, nc = platform, nats_client.jetstream(), nats_client
    name = f"gone-{uuid.uuid4().hex[:8]}"
    call = lambda method, request: rpc.call(nc, subjects, method, request)  # noqa: E731
    gone = await call(Identity.create_project, CreateProjectRequest(owner="acme", name=name))
    kept = await call(Identity.create_project, CreateProjectRequest(owner="acme", name="kept"))
    conn = await connect(database_url)
    try:
        ids = await fill(js, subjects, conn, nc, s3_server, s3_bucket, gone)
        kept_ids = await fill(js, subjects, conn, nc, s3_server, s3_bucket, kept)
        markers = [gone.id, name, ids["run"], ids["trace"]]
        kept_markers = [kept.id, kept_ids["run"], kept_ids["trace"]]

        async def everywhere() -> dict[str, int] | None:
            """Once the project's data reached every service (events and ingest consumed)."""
            found = await naming(conn, markers)
            holders = {table.split(".")[0] for table in found}
            wanted = {"tracking.traces", "tracking.artifacts", "tracking.project_retention",
                      "tracking.metric_points", "scheduler.project_retention",
                      "evaluation.datasets", "identity.api_keys"}  # fmt: skip
            return found if holders >= set(SERVICES) and wanted <= set(found) else None

        before = await wait_for(everywhere, timeout=60, message="the project's data everywhere")

        async def kept_everywhere() -> dict[str, int] | None:
            found = await naming(conn, kept_markers)  # the other project's points landed too
            return found if "tracking.metric_points" in found else None

        kept_before = await wait_for(kept_everywhere, timeout=60, message="the other's data")
        assert len(await objects(s3_server, s3_bucket)) == 4

        accepted = await call(
            Identity.delete_project, DeleteProjectRequest(owner="acme", name=name)
        )
        assert (accepted.scope, accepted.target) == ("project", gone.id)

        events = subjects.stream_name(StreamKind.EVENTS)

        async def confirmed() -> list[str] | None:
            found = await read_stream(js, events, subjects.event("deletion.completed"))
            done = [json.loads(data)["data"] for _, data, _ in found]
            mine = [d["service"] for d in done if d["request_id"] == accepted.request_id]
            return mine if set(mine) == set(SERVICES) else None

        await wait_for(confirmed, timeout=60, message="every service confirmed the deletion")
        for service in SERVICES:  # no deletion in flight: nothing will confirm twice
            await wait_for(lambda s=service: drained(js, events, f"{s}-deletions"), timeout=30)
        assert sorted(await confirmed() or []) == sorted(SERVICES)  # once per service

        await wait_for(lambda: drained(js, events, "identity-audit"), timeout=30)
        assert before, "the walk saw the project's data before"
        assert await naming(conn, markers) == {}
        assert await naming(conn, kept_markers) == kept_before  # the other project is whole
        kept_digest = hashlib.sha256(b"weights of acme/kept").hexdigest()
        assert await objects(s3_server, s3_bucket) == [  # the other project's are there
            f"artifacts/{content_key('acme/kept', kept_digest)}",
            f"artifacts/acme/kept/{kept_ids['run']}/model.bin",
        ]
    finally:
        await conn.close()
