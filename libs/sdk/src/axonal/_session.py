"""How ``init()`` finds or starts the run: attached (managed), created over HTTP, or offline."""

from __future__ import annotations

import os
import uuid as uuidlib
from pathlib import Path
from typing import Any

from axonal._artifact_upload import Target, attach
from axonal._credentials import token_for
from axonal._errors import NotInRunError
from axonal._offline import OfflineSender, Recorder
from axonal._run import ApiChannel, OfflineChannel, Run
from axonal._transport import Destination

__all__ = ["managed_channel", "open_run", "project_of"]

RUN_UUID_ENV = "AXONAL_RUN_UUID"
OFFLINE_ENV = "AXONAL_OFFLINE"
DEFAULT_API_URL = "http://127.0.0.1:8000"
DEFAULT_PROJECT = "default/default"


def project_of(project: str | None) -> str:
    """``project``, else ``AXONAL_PROJECT``, else ``default/default``; must be owner/name."""
    value = project or os.environ.get("AXONAL_PROJECT") or DEFAULT_PROJECT
    owner, _, name = value.partition("/")
    if not owner or not name or "/" in name:
        raise ValueError(f"the project must be owner/name (e.g. acme/churn), not {value!r}")
    return value


def _home() -> Path:
    return Path(os.environ.get("AXONAL_HOME") or "~/.axonal").expanduser()


def _api() -> tuple[str, str | None]:
    url = os.environ.get("AXONAL_API_URL") or DEFAULT_API_URL
    return url.rstrip("/"), token_for(url)


def open_run(
    project: str | None,
    name: str | None,
    fields: dict[str, Any],
    *,
    offline: bool,
    offline_dir: str | os.PathLike[str] | None,
) -> Run:
    """The managed run of this process, else a new offline or api-created run.

    ``fields`` are the ``tags``, ``inputs`` and ``description`` the new run starts with.
    """
    if managed := os.environ.get(RUN_UUID_ENV):
        return Run(managed.replace("-", "").lower(), os.environ.get("AXONAL_PROJECT"), managed=True)
    if offline or os.environ.get(OFFLINE_ENV, "").lower() in {"1", "true", "yes"}:
        return _offline(project, name, fields, offline_dir)
    full = project_of(project)
    api_url, token = _api()
    channel = ApiChannel(api_url, full, token)
    found = channel.create(uuidlib.uuid4().hex, name=name, **fields)
    destination = Destination(found["uuid"], api_url=api_url, project=full, token=token)
    attach(Target(api_url, full, found["uuid"], token))
    return Run(found["uuid"], full, channel=channel, sender=destination.open)


def _offline(
    project: str | None,
    name: str | None,
    fields: dict[str, Any],
    folder_given: str | os.PathLike[str] | None,
) -> Run:
    """A run recorded in a folder; a folder that records a run already resumes it."""
    attach(None)
    full = project_of(project) if project or os.environ.get("AXONAL_PROJECT") else None
    run_uuid = uuidlib.uuid4().hex
    folder = Path(folder_given).expanduser() if folder_given else _home() / "offline" / run_uuid
    recorder = Recorder(folder)
    channel = OfflineChannel(recorder)
    if resumed := recorder.recorded_uuid():
        run_uuid = resumed
        if fields.get("tags") or fields.get("inputs"):
            channel.update(tags=fields.get("tags") or [], inputs=fields.get("inputs") or {})
    else:
        recorder.record("create", uuid=run_uuid, project=full, name=name, **fields)
    return Run(
        run_uuid,
        full,
        channel=channel,
        offline_dir=folder,
        sender=lambda: OfflineSender(folder),
        spool_file=folder / "spool.jsonl",
    )


def managed_channel(run_uuid: str) -> ApiChannel:
    """The api channel of the managed run ``run_uuid``, with its scoped token."""
    project = os.environ.get("AXONAL_PROJECT")
    if not os.environ.get("AXONAL_API_URL") or not project:
        raise NotInRunError(
            "this run cannot reach the api: AXONAL_API_URL and AXONAL_PROJECT are not both set"
        )
    api_url, token = _api()
    channel = ApiChannel(api_url, project_of(project), token)
    channel.run_uuid = run_uuid
    return channel
