"""``/api/v1/hub``: the component hub: push versioned components, list them, resolve a hubRef.

A tag is immutable (a push of other content is a 409 unless ``force``); ``latest`` names the
newest push; the built-in components (owner ``axonal``) are listed and read-only.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Response

from axonal_api.deps import GatewayDep
from axonal_api.routes.runs import ERRORS
from axonal_events.hub import (
    ComponentList,
    HubComponent,
    ListComponents,
    PushComponent,
    ResolveComponent,
)
from axonal_events.rpcs import Registry

__all__ = ["router"]

router = APIRouter(prefix="/api/v1/hub", tags=["hub"], responses=ERRORS)
Part = Annotated[str | None, Query(pattern=r"^[A-Za-z0-9][-A-Za-z0-9_.]{0,63}$")]


@router.get("/components", summary="Component versions, newest first per component")
async def list_components(gw: GatewayDep, owner: Part = None, name: Part = None) -> ComponentList:
    return await gw.call(Registry.list_components, ListComponents(owner=owner, name=name))


@router.post(
    "/components",
    status_code=201,
    summary="Push a component version (201; 200 when the tag holds this content already)",
)
async def push_component(gw: GatewayDep, body: PushComponent, response: Response) -> HubComponent:
    pushed = await gw.call(Registry.push_component, body)
    if not pushed.created:
        response.status_code = 200
    return pushed


@router.get("/resolve", summary="The version a hubRef names, with its polyaxonfile")
async def resolve_component(
    gw: GatewayDep,
    ref: Annotated[str, Query(min_length=1, max_length=200, description="[owner/]name[:tag]")],
) -> HubComponent:
    return await gw.call(Registry.resolve_component, ResolveComponent(ref=ref))
