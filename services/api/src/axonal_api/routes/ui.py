"""The web UI at ``/``: its built files (``make web``), and ``index.html`` for client routes.

``/assets/...`` are Vite's content-hashed files, cached for a year; the api reads each once and
answers it from memory (gzipped for clients that take it), as a page load asks for a dozen at
once while its data is being read. Any other GET that is not
the API's (``/api/...``, ``/v1/...``, ``/healthz``, the API docs) is a file at the root of the
build (``favicon.svg``) or else ``index.html``, never cached, so a deep link such as
``/projects/acme/demo/runs/123`` works on reload. The API's own paths never reach this module:
an unknown one stays a JSON 404. Without a build, ``/`` answers 503 and says how to make one.
"""

from __future__ import annotations

import asyncio
import gzip
import hashlib
import mimetypes
import os
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse, Response
from starlette.datastructures import Headers
from starlette.exceptions import HTTPException
from starlette.responses import FileResponse
from starlette.routing import Match, Route
from starlette.staticfiles import NotModifiedResponse, StaticFiles
from starlette.types import Scope

__all__ = ["ASSETS_CACHE", "PAGE_CACHE", "include", "is_api_path"]

#: Vite names every file under ``assets/`` by its content hash: a new build is a new name.
ASSETS_CACHE = "public, max-age=31536000, immutable"
#: ``index.html`` and the build's root files: revalidated on every load (ETag, 304).
PAGE_CACHE = "no-cache"

#: Paths the API owns, with everything under them; the UI never answers there.
_API_PATHS = ("/api", "/v1", "/healthz", "/docs", "/openapi.json", "/redoc")

_NOT_BUILT = """\
<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Axonal: the web UI is not built</title></head>
<body style="font-family: sans-serif; max-width: 40em; margin: 3em auto">
<h1>The web UI is not built</h1>
<p>The api serves the UI from its build folder (<code>services/web/dist</code> by default,
or <code>AXONAL_API_WEB_DIR</code>), which has no <code>index.html</code> yet.</p>
<p>Build it with <code>make web</code> (it needs Node.js 20+); <code>make up</code> builds it
before it starts the platform. The API itself is up: see <a href="/docs">/docs</a>.</p>
</body>
</html>
"""


def is_api_path(path: str) -> bool:
    """``path`` is the API's (or its documentation's), not a page of the UI."""
    return any(path == root or path.startswith(f"{root}/") for root in _API_PATHS)


class _BuiltFiles(StaticFiles):
    """Files of a build folder that may not exist yet (a missing file is a 404, not a 500),
    each answered with ``cache_control``."""

    def __init__(self, directory: Path, cache_control: str) -> None:
        super().__init__(directory=directory, check_dir=False)
        self.cache_control = cache_control

    async def check_config(self) -> None:
        """No start-up check: the UI may be built while the api runs."""

    def file_response(
        self,
        full_path: str | os.PathLike[str],
        stat_result: os.stat_result,
        scope: Scope,
        status_code: int = 200,
    ) -> Response:
        response = FileResponse(
            full_path,
            status_code=status_code,
            stat_result=stat_result,
            headers={"Cache-Control": self.cache_control},
        )
        if self.is_not_modified(response.headers, Headers(scope=scope)):
            return NotModifiedResponse(response.headers)
        return response


#: Types worth gzipping (images and fonts are compressed already).
_COMPRESSIBLE = ("text/", "application/javascript", "application/json", "image/svg+xml")


@dataclass(frozen=True)
class _Asset:
    body: bytes
    gzipped: bytes | None
    media_type: str
    etag: str


def _read_asset(path: Path) -> _Asset:
    body = path.read_bytes()
    media_type = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
    compress = len(body) > 1024 and media_type.startswith(_COMPRESSIBLE)
    gzipped = gzip.compress(body, 6, mtime=0) if compress else None
    return _Asset(body, gzipped, media_type, f'"{hashlib.sha256(body).hexdigest()[:20]}"')


def _assets_endpoint(folder: Path) -> Callable[[Request], Awaitable[Response]]:
    """``/assets/{name}``: a file of ``folder``, read on its first request and kept."""
    cache: dict[str, _Asset] = {}

    async def asset(request: Request) -> Response:
        name: str = request.path_params["name"]
        found = cache.get(name)
        if found is None:
            path = folder / name
            if "/" in name or name.startswith(".") or not path.is_file():
                raise HTTPException(404)
            found = cache[name] = await asyncio.to_thread(_read_asset, path)
        headers = {"Cache-Control": ASSETS_CACHE, "ETag": found.etag, "Vary": "Accept-Encoding"}
        if request.headers.get("if-none-match") == found.etag:
            return Response(status_code=304, headers=headers)
        if found.gzipped is not None and "gzip" in request.headers.get("accept-encoding", ""):
            headers["Content-Encoding"] = "gzip"
            return Response(found.gzipped, media_type=found.media_type, headers=headers)
        return Response(found.body, media_type=found.media_type, headers=headers)

    return asset


class _PageRoute(Route):
    """A GET or HEAD of any path that is not the API's; other requests are not its own, so
    they still get the API's 404 or 405."""

    def matches(self, scope: Scope) -> tuple[Match, Scope]:
        if (
            scope["type"] != "http"
            or scope["method"] not in {"GET", "HEAD"}
            or is_api_path(scope["path"])
        ):
            return Match.NONE, {}
        return super().matches(scope)


def _page_endpoint(web_dir: Path) -> Callable[[Request], Awaitable[Response]]:
    root_files = _BuiltFiles(web_dir, PAGE_CACHE)
    index = web_dir / "index.html"

    async def page(request: Request) -> Response:
        try:
            index_stat = index.stat()
        except OSError:
            return HTMLResponse(_NOT_BUILT, status_code=503, headers={"Cache-Control": "no-store"})
        try:
            return await root_files.get_response(root_files.get_path(request.scope), request.scope)
        except HTTPException as exc:
            if exc.status_code != 404:
                raise
        return root_files.file_response(index, index_stat, request.scope)

    return page


def include(app: FastAPI, web_dir: Path) -> None:
    """Serve the UI built in ``web_dir``; add this after every API route."""
    app.router.routes.append(
        Route(
            "/assets/{name:path}",
            _assets_endpoint(web_dir / "assets"),
            methods=["GET", "HEAD"],
            name="ui-assets",
            include_in_schema=False,
        )
    )
    app.router.routes.append(
        _PageRoute(
            "/{path:path}",
            _page_endpoint(web_dir),
            methods=["GET", "HEAD"],
            name="ui",
            include_in_schema=False,
        )
    )
