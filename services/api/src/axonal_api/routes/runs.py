"""``/api/v1/{owner}/{project}/runs``: create, list, get, statuses, paged logs, actions."""

from __future__ import annotations

import uuid
from functools import partial
from typing import Annotated, Literal

from fastapi import APIRouter, Header, Path, Query
from fastapi.concurrency import run_in_threadpool
from pydantic import AwareDatetime, Field

from axonal_api.bodies import CreateRun, ErrorBody
from axonal_api.deps import GatewayDep
from axonal_api.errors import ApiError
from axonal_api.hub_refs import fetch_component
from axonal_api.idempotency import submit_ids
from axonal_api.validation import problems_of, validate_submission
from axonal_events import RunStatus
from axonal_events.commands import RunAction, SubmitRun
from axonal_events.rpcs import Scheduler
from axonal_events.runs import (
    ActionAccepted,
    GetRun,
    ListRuns,
    LogPage,
    ReadLogs,
    RunCreated,
    RunInfo,
    RunList,
    StatusHistory,
)
from axonal_spec import SpecError
from axonal_spec.hub import PrefetchedHub, compile_prefetched

__all__ = ["Owner", "Project", "RunUuid", "get_run_checked", "router"]

SLUG = r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$"
Owner = Annotated[str, Path(pattern=SLUG, description="Organisation slug.")]
Project = Annotated[str, Path(pattern=SLUG, description="Project slug.")]
RunUuid = Annotated[str, Path(pattern=r"^[0-9a-fA-F-]{32,36}$", description="The run's uuid.")]

ERRORS: dict[int | str, dict[str, object]] = {
    code: {"model": ErrorBody} for code in (400, 401, 403, 404, 409, 422, 503)
}

TagText = Annotated[str, Field(min_length=1, max_length=100)]

router = APIRouter(prefix="/api/v1/{owner}/{project}/runs", tags=["runs"], responses=ERRORS)


async def get_run_checked(gw: GatewayDep, owner: str, project: str, run_uuid: str) -> RunInfo:
    """The run, or a 404 when it does not exist or belongs to another project."""
    run = await gw.call(Scheduler.get_run, GetRun(run_uuid=run_uuid))
    if (run.owner, run.project) != (owner, project):
        raise ApiError(404, "not_found", f"not found: run {run_uuid} in {owner}/{project}")
    return run


@router.post("", status_code=202, summary="Submit a run")
async def create_run(
    gw: GatewayDep,
    owner: Owner,
    project: Project,
    body: CreateRun,
    idempotency_key: Annotated[str | None, Header(max_length=200)] = None,
) -> RunCreated:
    """Validate the polyaxonfile now (400 with every problem), then submit it; the answer
    names the fields the local agent will ignore."""
    run_uuid, command_id = submit_ids(owner, project, idempotency_key)
    texts = body.texts()

    async def attempt(hub: PrefetchedHub) -> list[str]:
        return await run_in_threadpool(
            validate_submission,
            texts,
            body.presets,
            body.params,
            uuid=run_uuid,
            owner=owner,
            project=project,
            hub=hub,
        )

    try:
        warnings = await compile_prefetched(attempt, partial(fetch_component, gw))
    except SpecError as exc:
        raise ApiError(400, "invalid_polyaxonfile", str(exc), details=problems_of(exc)) from None
    submit = SubmitRun(
        run_uuid=run_uuid,
        owner=owner,
        project=project,
        files=texts,
        presets=body.presets,
        params=body.params,
        queue=body.queue,
        name=body.name,
    )
    await gw.command(
        "scheduler",
        "submit",
        submit,
        applied=True,
        project=f"{owner}/{project}",
        event_id=command_id,
    )
    return RunCreated(uuid=run_uuid, owner=owner, project=project, warnings=warnings)


@router.get("", summary="List runs")
async def list_runs(
    gw: GatewayDep,
    owner: Owner,
    project: Project,
    status: RunStatus | None = None,
    pipeline: Annotated[str | None, Query(pattern=r"^[0-9a-fA-F-]{32,36}$")] = None,
    kind: Annotated[str | None, Query(max_length=64, description="job, dag, matrix...")] = None,
    tag: Annotated[
        list[TagText] | None,
        Query(max_length=20, description="Repeatable: runs carrying every one of these tags."),
    ] = None,
    name: Annotated[
        str | None, Query(max_length=256, description="A part of the name, in any case.")
    ] = None,
    created_after: Annotated[
        AwareDatetime | None, Query(description="Created at or after this time (with a zone).")
    ] = None,
    created_before: Annotated[
        AwareDatetime | None, Query(description="Created before this time (with a zone).")
    ] = None,
    limit: Annotated[int, Query(ge=1, le=1000)] = 50,
    offset: Annotated[int, Query(ge=0, le=1_000_000)] = 0,
) -> RunList:
    query = ListRuns(
        owner=owner,
        project=project,
        status=status,
        pipeline_uuid=pipeline,
        kind=kind or None,
        tags=tag or [],
        name=name or None,
        created_after=created_after,
        created_before=created_before,
        limit=limit,
        offset=offset,
    )
    return await gw.call(Scheduler.list_runs, query)


@router.get("/{run_uuid}", summary="Get a run")
async def get_run(gw: GatewayDep, owner: Owner, project: Project, run_uuid: RunUuid) -> RunInfo:
    return await get_run_checked(gw, owner, project, run_uuid)


@router.get("/{run_uuid}/statuses", summary="Status history of a run")
async def statuses(
    gw: GatewayDep, owner: Owner, project: Project, run_uuid: RunUuid
) -> StatusHistory:
    await get_run_checked(gw, owner, project, run_uuid)
    return await gw.call(Scheduler.statuses, GetRun(run_uuid=run_uuid))


@router.get("/{run_uuid}/logs", summary="A page of a run's logs")
async def logs(
    gw: GatewayDep,
    owner: Owner,
    project: Project,
    run_uuid: RunUuid,
    after: Annotated[int, Query(ge=0, le=2**62)] = 0,
    limit: Annotated[int, Query(ge=1, le=10000)] = 1000,
) -> LogPage:
    await get_run_checked(gw, owner, project, run_uuid)
    query = ReadLogs(run_uuid=run_uuid, after=after, limit=limit)
    return await gw.call(Scheduler.logs, query)


Verb = Literal["stop", "restart", "resume", "approve", "skip"]


async def _act(
    gw: GatewayDep, owner: str, project: str, run_uuid: str, verb: str
) -> ActionAccepted:
    run = await get_run_checked(gw, owner, project, run_uuid)
    new_uuid = uuid.uuid4().hex if verb == "restart" else None
    action = RunAction(verb=verb, run_uuid=run.uuid, new_run_uuid=new_uuid)
    await gw.command("scheduler", verb, action, applied=True, project=f"{owner}/{project}")
    return ActionAccepted(uuid=run.uuid, action=verb, new_uuid=new_uuid)


@router.post("/{run_uuid}/{verb}", status_code=202, summary="Stop, restart, resume, approve, skip")
async def act(
    gw: GatewayDep, owner: Owner, project: Project, run_uuid: RunUuid, verb: Verb
) -> ActionAccepted:
    """Publish the action; the run's statuses tell what came of it."""
    return await _act(gw, owner, project, run_uuid, verb)


@router.delete("/{run_uuid}", status_code=202, summary="Delete a run")
async def delete(
    gw: GatewayDep, owner: Owner, project: Project, run_uuid: RunUuid
) -> ActionAccepted:
    return await _act(gw, owner, project, run_uuid, "delete")
