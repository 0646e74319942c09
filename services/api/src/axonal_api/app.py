"""Wiring only: settings -> NATS connection, ping responder, routes, error handlers, web UI."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator

import structlog
from fastapi import Depends, FastAPI

from axonal_api import VERSION
from axonal_api.access import check_permissions, enforce
from axonal_api.audit import AuditWrites
from axonal_api.errors import install_error_handlers
from axonal_api.gateway import Gateway
from axonal_api.prompt_cache import PromptCache
from axonal_api.quotas import Quotas
from axonal_api.routes import (
    alerts,
    api_keys,
    artifacts,
    audit,
    auth,
    automations,
    compare,
    connections,
    evals,
    events,
    experiments,
    health,
    hub,
    lineage,
    llm_models,
    llm_v1,
    metrics,
    model_evaluations,
    models,
    principals,
    projects,
    prompts,
    public_annotation_queues,
    public_dataset_runs,
    public_datasets,
    public_ingest,
    public_llm_connections,
    public_models,
    public_prompts,
    public_read,
    public_score_configs,
    queues,
    quotas,
    runs,
    schedules,
    stream,
    studies,
    teams,
    traces_v1,
    tracked,
    ui,
    webhooks,
)
from axonal_api.score_config_cache import ScoreConfigCache
from axonal_api.settings import ApiSettings
from axonal_bus.broker import connect_nats, create_broker
from axonal_bus.ping import serve_ping

__all__ = ["build_app"]

log = structlog.get_logger(__name__)


def build_app(settings: ApiSettings, *, connect: bool = True) -> FastAPI:
    """The api on ``settings``; its lifespan connects to NATS (not with ``connect=False``,
    which only documents the routes)."""

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        if not connect:
            yield
            return
        nc = await connect_nats(
            settings,
            name="axonal-api",
            max_reconnect_attempts=-1,
            inbox_prefix=settings.subjects.inbox_prefix("api"),
        )
        broker = create_broker(settings, service="api")
        serve_ping(
            broker,
            settings.subjects,
            service="api",
            version=VERSION,
            checks=None,
            replica=settings.replica,
        )
        await broker.start()
        app.state.gateway = Gateway(
            nc,
            settings.subjects,
            timeout=settings.api_rpc_timeout,
            apply_wait=settings.api_apply_wait,
        )
        await app.state.prompt_cache.watch(nc, settings.subjects)
        log.info(
            "api.started",
            nats=settings.nats_url_shown,
            port=settings.api_port,
            web_dir=str(settings.api_web_dir) if settings.api_web_dir else None,
        )
        try:
            yield
        finally:
            app.state.gateway = None
            await broker.stop()
            await nc.drain()

    app = FastAPI(
        title="Axonal API",
        version=VERSION,
        description="The platform over HTTP: every read is an RPC, every write a command.",
        lifespan=lifespan,
        dependencies=[Depends(enforce)],  # every route: the permission it declares
    )
    app.state.settings = settings
    app.state.gateway = None
    app.state.prompt_cache = PromptCache()
    app.state.score_config_cache = ScoreConfigCache()
    app.state.quotas = Quotas(settings)
    install_error_handlers(app)
    app.include_router(health.router)
    # prompt reads first: applications fetch prompts on their own request path, and routes
    # are matched in order
    app.include_router(public_prompts.router)
    public_ingest.include(app)  # Basic auth with project API keys, Langfuse-shaped errors
    app.include_router(public_read.router)
    app.include_router(public_models.router)
    app.include_router(public_dataset_runs.router)  # before the datasets' /{name:path}
    app.include_router(public_datasets.router)
    app.include_router(public_score_configs.router)
    app.include_router(public_annotation_queues.router)
    app.include_router(public_llm_connections.router)
    # metrics and tracked before runs, whose /{uuid}/{verb} would take their paths
    for module in (
        metrics,
        tracked,
        prompts,
        experiments,
        artifacts,
        studies,
        runs,
        compare,
        events,
        automations,
        schedules,
        stream,
        alerts,
        webhooks,
        connections,
        projects,
        quotas,
        api_keys,
        auth,
        principals,
        teams,
        audit,
        traces_v1,
        llm_v1,
        llm_models,
        models,
        model_evaluations,
        lineage,
        hub,
        queues,
        evals,
    ):
        app.include_router(module.router)
    check_permissions(app)
    app.add_middleware(AuditWrites)
    if settings.api_web_dir is not None:
        ui.include(app, settings.api_web_dir)  # last: it answers the GETs no API route takes
    return app
