"""Stand-ins for the scheduler's and identity's RPCs on a real NATS (api and CLI tests)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import threading
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from faststream.nats import NatsBroker
from nats.aio.client import Client
from nats.aio.msg import Msg

from axonal_bus import rpc
from axonal_bus.broker import connect_nats, create_broker
from axonal_bus.errors import Conflict, Forbidden, NotFound
from axonal_bus.settings import BusSettings
from axonal_events import RunStatus, Subjects
from axonal_events.commands import SubmitRun
from axonal_events.identity import CreateProjectRequest, ListProjectsRequest, Project, ProjectList
from axonal_events.principals import AuthenticateRequest, Principal
from axonal_events.rpcs import Identity, Scheduler
from axonal_events.runs import (
    GetRun,
    ListRuns,
    LogLine,
    LogPage,
    ReadLogs,
    RunInfo,
    RunList,
    StatusChange,
    StatusHistory,
)

__all__ = ["OPERATOR", "OPERATOR_TOKEN", "FakePlatform", "api_in_thread"]

#: The operator's token (``AXONAL_API_TOKEN``) of an api whose identity service is a fake:
#: a superuser, so that tests of route shapes pass the permission checks.
OPERATOR_TOKEN = "operator-test-token"  # noqa: S105 - a test value
OPERATOR = {"Authorization": f"Bearer {OPERATOR_TOKEN}"}
#: A user who is a viewer in organization ``acme``, known to the fake identity service.
VIEWER = {"Authorization": "Bearer viewer-test-token"}

NOW = datetime(2026, 11, 30, tzinfo=UTC)


@dataclass
class FakePlatform:
    """Runs, their logs and projects in memory; tests change them directly."""

    runs: dict[str, RunInfo] = field(default_factory=dict)
    logs: dict[str, list[LogLine]] = field(default_factory=dict)
    projects: list[Project] = field(default_factory=list)
    #: Submitted runs appear ``running``, then end with this status on their next read.
    finish_as: RunStatus = RunStatus.SUCCEEDED
    #: Children each submitted run gets (a DAG or matrix when above 0), all done.
    children: int = 0
    submitted: list[SubmitRun] = field(default_factory=list)
    _finishing: set[str] = field(default_factory=set)
    _notices: tuple[Client, Subjects] | None = None  # where "applied" notices go, once following

    def add_run(
        self,
        owner: str = "acme",
        project: str = "demo",
        status: RunStatus = RunStatus.RUNNING,
        **extra: object,
    ) -> RunInfo:
        fields: dict[str, object] = {"kind": "job", "created_at": NOW, **extra}
        run = RunInfo.model_validate(
            {"uuid": uuid.uuid4().hex, "owner": owner, "project": project, "status": status}
            | fields
        )
        self.runs[run.uuid] = run
        return run

    def set_status(self, run_uuid: str, status: RunStatus) -> None:
        self.runs[run_uuid] = self.runs[run_uuid].model_copy(update={"status": status})

    def add_lines(self, run_uuid: str, *texts: str) -> None:
        lines = self.logs.setdefault(run_uuid, [])
        for text in texts:
            lines.append(LogLine(seq=len(lines) + 1, at=NOW, stream="stdout", line=text))

    def _run(self, run_uuid: str) -> RunInfo:
        try:
            return self.runs[run_uuid]
        except KeyError:
            raise NotFound(f"run {run_uuid} does not exist") from None

    async def get_run(self, req: GetRun) -> RunInfo:
        run = self._run(req.run_uuid)
        if run.uuid in self._finishing:
            self._finishing.discard(run.uuid)
            self.set_status(run.uuid, self.finish_as)
        return run

    async def on_submit(self, msg: Msg) -> None:
        envelope = json.loads(msg.data)
        submit = SubmitRun.model_validate(envelope["data"])
        self.submitted.append(submit)
        self._record(submit)
        if self._notices is not None:  # applied, as the scheduler announces it
            nc, subjects = self._notices
            await nc.publish(subjects.applied(envelope["id"]), b"")

    def _record(self, submit: SubmitRun) -> None:
        kind = "matrix" if self.children else "job"
        run = RunInfo(
            uuid=submit.run_uuid,
            owner=submit.owner,
            project=submit.project,
            name=submit.name,
            kind=kind,
            status=RunStatus.RUNNING,
            queue=submit.queue,
            created_at=NOW,
            children=self.children,
        )
        self.runs[run.uuid] = run
        self._finishing.add(run.uuid)
        for _ in range(self.children):
            self.add_run(
                submit.owner, submit.project, status=RunStatus.SUCCEEDED, pipeline_uuid=run.uuid
            )

    async def list_runs(self, req: ListRuns) -> RunList:
        found = [
            r
            for r in self.runs.values()
            if (r.owner, r.project) == (req.owner, req.project)
            and (req.status is None or r.status == req.status)
            and (req.pipeline_uuid is None or r.pipeline_uuid == req.pipeline_uuid)
            and (req.kind is None or r.kind == req.kind)
            and set(req.tags) <= set(r.tags)
            and (req.name is None or req.name.lower() in (r.name or "").lower())
            and (req.created_after is None or r.created_at >= req.created_after)
            and (req.created_before is None or r.created_at < req.created_before)
        ]
        return RunList(runs=found[req.offset : req.offset + req.limit], total=len(found))

    async def statuses(self, req: GetRun) -> StatusHistory:
        run = self._run(req.run_uuid)
        changes = [StatusChange(status=s, at=NOW) for s in (RunStatus.CREATED, run.status)]
        return StatusHistory(run_uuid=run.uuid, changes=changes)

    async def read_logs(self, req: ReadLogs) -> LogPage:
        run = self._run(req.run_uuid)
        lines = [line for line in self.logs.get(run.uuid, []) if line.seq > req.after]
        return LogPage(
            run_uuid=run.uuid,
            lines=lines[: req.limit],
            done=run.status in {RunStatus.SUCCEEDED, RunStatus.FAILED, RunStatus.STOPPED},
        )

    async def create_project(self, req: CreateProjectRequest) -> Project:
        if any((p.owner, p.name) == (req.owner, req.name) for p in self.projects):
            raise Conflict(f"project {req.owner}/{req.name} already exists")
        project = Project(id=uuid.uuid4().hex, owner=req.owner, name=req.name, created_at=NOW)
        self.projects.append(project)
        return project

    async def list_projects(self, req: ListProjectsRequest) -> ProjectList:
        return ProjectList(projects=[p for p in self.projects if req.owner in (None, p.owner)])

    async def authenticate(self, req: AuthenticateRequest) -> Principal:
        """One user exists here: :data:`VIEWER`'s, a viewer in ``acme``."""
        if f"Bearer {req.token}" == VIEWER["Authorization"]:
            return Principal(id="viewer", name="viewer", kind="user", org_roles={"acme": "viewer"})
        raise Forbidden("invalid, expired or revoked token")

    async def follow_submits(self, nc: Client, subjects: Subjects) -> None:
        """Create the runs the api submits (a plain core subscription, which never replies:
        a FastStream subscriber would answer the publisher's PubAck inbox)."""
        self._notices = (nc, subjects)
        await nc.subscribe(subjects.command("scheduler", "submit"), cb=self.on_submit)

    def serve(self, broker: NatsBroker, subjects: Subjects) -> None:
        rpc.serve(broker, subjects, Scheduler.get_run, self.get_run, queue="scheduler")
        rpc.serve(broker, subjects, Scheduler.list_runs, self.list_runs, queue="scheduler")
        rpc.serve(broker, subjects, Scheduler.statuses, self.statuses, queue="scheduler")
        rpc.serve(broker, subjects, Scheduler.logs, self.read_logs, queue="scheduler")
        rpc.serve(broker, subjects, Identity.create_project, self.create_project, queue="identity")
        rpc.serve(broker, subjects, Identity.list_projects, self.list_projects, queue="identity")
        rpc.serve(broker, subjects, Identity.authenticate, self.authenticate, queue="identity")


@contextlib.contextmanager
def api_in_thread(
    make_app: Callable[[], Any],
    settings: BusSettings,
    platform: FakePlatform | None = None,
    *,
    timeout: float = 20.0,
) -> Iterator[str]:
    """Serve ``make_app()`` with uvicorn on a free port in a thread (its own event loop),
    with ``platform``'s fakes answering on the bus; yields the base URL.

    For synchronous callers (CLI runners, schemathesis) that cannot share the test's loop.
    """
    import uvicorn  # noqa: PLC0415 - only the api tests need it

    ready = threading.Event()
    found: dict[str, Any] = {}

    async def main() -> None:
        broker = create_broker(settings, service="fakes")
        nc = await connect_nats(settings, name="fakes")
        if platform is not None:
            platform.serve(broker, settings.subjects)
            await broker.start()
            await platform.follow_submits(nc, settings.subjects)
        config = uvicorn.Config(
            make_app(), host="127.0.0.1", port=0, log_level="warning", lifespan="on"
        )
        server = uvicorn.Server(config)
        found["server"] = server
        task = asyncio.create_task(server.serve())
        while not server.started and not task.done():  # noqa: ASYNC110 - uvicorn has no event
            await asyncio.sleep(0.01)
        if server.started:
            found["port"] = server.servers[0].sockets[0].getsockname()[1]
        ready.set()
        try:
            await task
        finally:
            await broker.stop()
            await nc.close()

    thread = threading.Thread(target=lambda: asyncio.run(main()), daemon=True)
    thread.start()
    if not ready.wait(timeout) or "port" not in found:
        raise RuntimeError("the api did not start")
    try:
        yield f"http://127.0.0.1:{found['port']}"
    finally:
        found["server"].should_exit = True
        thread.join(timeout)
