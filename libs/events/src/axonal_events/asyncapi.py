"""The AsyncAPI 3.0 document of the event contract, generated from the catalog.

``python -m axonal_events.asyncapi`` prints it; a test compares it with the committed copy.
"""

from __future__ import annotations

import json
from typing import Any

from pydantic import BaseModel
from pydantic.json_schema import models_json_schema

from axonal_events.catalog import CATALOG, Catalog
from axonal_events.commands import COMMANDS
from axonal_events.envelope import TYPE_PREFIX, CloudEvent, dataschema_for
from axonal_events.rpc import PingReply, PingRequest, RpcError
from axonal_events.rpcs import ALL_RPCS
from axonal_events.subjects import Subjects

__all__ = ["asyncapi_document", "render"]

_REF = "#/components/schemas/{model}"


def _envelope_schema(event_type: str, version: int, data_ref: str) -> dict[str, Any]:
    envelope = CloudEvent[dict[str, Any]].model_json_schema()
    props = envelope["properties"]
    props["type"] = {"const": TYPE_PREFIX + event_type, "type": "string"}
    props["dataschema"] = {"const": dataschema_for(event_type, version), "type": "string"}
    props["data"] = {"$ref": data_ref}
    envelope["title"] = f"{event_type} v{version}"
    return envelope


def _model_schemas(model: type[BaseModel]) -> dict[str, Any]:
    _, defs = models_json_schema([(model, "validation")], ref_template=_REF)
    return dict(defs.get("$defs", {}))


def asyncapi_document(
    catalog: Catalog = CATALOG, subjects: Subjects | None = None
) -> dict[str, Any]:
    """Channels for every event type, command and RPC, payloads as JSON Schema."""
    subjects = subjects or Subjects()
    models: set[type[BaseModel]] = {entry.model for entry in catalog} | {PingRequest, PingReply}
    _, defs = models_json_schema(
        [(m, "validation") for m in sorted(models, key=lambda m: m.__name__)],
        ref_template=_REF,
    )
    schemas: dict[str, Any] = dict(defs.get("$defs", {}))
    channels: dict[str, Any] = {}
    operations: dict[str, Any] = {}
    messages: dict[str, Any] = {}
    for entry in catalog:
        key = f"{entry.event_type}.v{entry.version}"
        messages[key] = {
            "name": TYPE_PREFIX + entry.event_type,
            "title": entry.event_type,
            "summary": entry.description,
            "contentType": "application/cloudevents+json",
            "payload": _envelope_schema(
                entry.event_type, entry.version, _REF.format(model=entry.model.__name__)
            ),
        }
        channels[entry.event_type] = {
            "address": subjects.event(entry.event_type),
            "messages": {key: {"$ref": f"#/components/messages/{key}"}},
        }
        operations[f"publish.{entry.event_type}"] = {
            "action": "send",
            "channel": {"$ref": f"#/channels/{entry.event_type}"},
        }
    for entry in COMMANDS:
        key = f"{entry.event_type}.v{entry.version}"
        service, _, verb = entry.event_type.partition(".")
        address = (
            f"{subjects.namespace}.cmd.agent.{{queue}}"
            if service == "agent"
            else subjects.command(service, verb)
        )
        schemas.update(_model_schemas(entry.model))
        messages[key] = {
            "name": TYPE_PREFIX + entry.event_type,
            "title": entry.event_type,
            "summary": entry.description,
            "contentType": "application/cloudevents+json",
            "payload": _envelope_schema(
                entry.event_type, entry.version, _REF.format(model=entry.model.__name__)
            ),
        }
        channels[f"cmd.{entry.event_type}"] = {
            "address": address,
            "messages": {key: {"$ref": f"#/components/messages/{key}"}},
        }
        operations[f"command.{entry.event_type}"] = {
            "action": "receive",
            "channel": {"$ref": f"#/channels/cmd.{entry.event_type}"},
        }
    schemas.update(_model_schemas(RpcError))
    for rpc in ALL_RPCS:
        schemas.update(_model_schemas(rpc.request))
        schemas.update(_model_schemas(rpc.reply))
        _add_rpc(
            channels,
            operations,
            messages,
            name=f"{rpc.service}.{rpc.method}",
            address=rpc.subject(subjects),
            summary=rpc.summary,
            request=rpc.request,
            reply=rpc.reply,
        )
    _add_rpc(
        channels,
        operations,
        messages,
        name="ping",
        address=f"{subjects.namespace}.rpc.{{service}}.ping",
        summary="Health of a service; every service answers it.",
        request=PingRequest,
        reply=PingReply,
    )
    channels["rpc.ping"]["parameters"] = {"service": {"description": "The service asked."}}
    channels["applied"] = {
        "address": f"{subjects.namespace}.applied.{{commandId}}",
        "parameters": {"commandId": {"description": "The envelope id of the command."}},
        "messages": {"Applied": {"$ref": "#/components/messages/Applied"}},
    }
    messages["Applied"] = {
        "summary": "Core NATS, empty: a user's command (submit, run action) is applied; the api "
        "answers its client only then, so the next read sees the write.",
        "payload": {"type": "string", "maxLength": 0},
    }
    operations["applied"] = {"action": "send", "channel": {"$ref": "#/channels/applied"}}
    return {
        "asyncapi": "3.0.0",
        "info": {
            "title": "Axonal bus",
            "version": "1.0.0",
            "description": "Events (CloudEvents 1.0, structured JSON) and RPCs on NATS JetStream.",
        },
        "defaultContentType": "application/cloudevents+json",
        "channels": channels,
        "operations": operations,
        "components": {"messages": messages, "schemas": schemas},
    }


def _add_rpc(
    channels: dict[str, Any],
    operations: dict[str, Any],
    messages: dict[str, Any],
    *,
    name: str,
    address: str,
    summary: str,
    request: type[BaseModel],
    reply: type[BaseModel],
) -> None:
    """A request/reply channel: the request, and a reply that is the result or an error."""
    result = {
        "type": "object",
        "required": ["ok", "result"],
        "properties": {
            "ok": {"const": True},
            "result": {"$ref": _REF.format(model=reply.__name__)},
        },
    }
    error = {"$ref": _REF.format(model=RpcError.__name__)}
    messages[f"{name}.request"] = {
        "name": f"{name}.request",
        "summary": summary,
        "contentType": "application/json",
        "payload": {"$ref": _REF.format(model=request.__name__)},
    }
    messages[f"{name}.reply"] = {
        "name": f"{name}.reply",
        "contentType": "application/json",
        "payload": {"oneOf": [result, error]},
    }
    channels[f"rpc.{name}"] = {
        "address": address,
        "messages": {f"{name}.request": {"$ref": f"#/components/messages/{name}.request"}},
    }
    channels[f"rpc.{name}.reply"] = {
        "address": None,
        "messages": {f"{name}.reply": {"$ref": f"#/components/messages/{name}.reply"}},
    }
    operations[f"rpc.{name}"] = {
        "action": "receive",
        "summary": summary,
        "channel": {"$ref": f"#/channels/rpc.{name}"},
        "reply": {"channel": {"$ref": f"#/channels/rpc.{name}.reply"}},
    }


def render() -> str:
    return json.dumps(asyncapi_document(), indent=2, sort_keys=True) + "\n"


if __name__ == "__main__":
    print(render(), end="")
