"""The web UI served by the api: built files, index.html for client routes, API paths kept."""

from pathlib import Path

import httpx
import pytest

from axonal_api.app import build_app
from axonal_api.routes.ui import ASSETS_CACHE, PAGE_CACHE, is_api_path
from axonal_api.settings import ApiSettings

ROOT = Path(__file__).resolve().parents[3]
INDEX = (
    "<!doctype html><html><head><title>Axonal test UI</title>"
    '<script type="module" src="/assets/index-abc123.js"></script></head>'
    '<body><div id="root"></div></body></html>'
)
SCRIPT = "document.getElementById('root').textContent = 'loaded';"


@pytest.fixture
def dist(tmp_path: Path) -> Path:
    """A build as Vite leaves it: index.html, hashed assets, a root file from public/."""
    folder = tmp_path / "dist"
    (folder / "assets").mkdir(parents=True)
    (folder / "index.html").write_text(INDEX)
    (folder / "assets" / "index-abc123.js").write_text(SCRIPT)
    (folder / "favicon.svg").write_text("<svg/>")
    (tmp_path / "secret.txt").write_text("not for the web")
    return folder


def client(web_dir: Path | None) -> httpx.AsyncClient:
    app = build_app(ApiSettings(api_web_dir=web_dir), connect=False)
    return httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://api")


async def test_the_root_and_any_client_route_answer_index_html_uncached(dist):
    async with client(dist) as http:
        for path in ("/", "/projects/acme/demo/runs/123", "/ui/traces", "/runs.json"):
            reply = await http.get(path)
            assert reply.status_code == 200, path
            assert reply.text == INDEX, path
            assert reply.headers["content-type"].startswith("text/html"), path
            assert reply.headers["cache-control"] == PAGE_CACHE, path
        head = await http.head("/projects/acme")
        assert head.status_code == 200
        assert head.headers["cache-control"] == PAGE_CACHE


async def test_index_html_is_revalidated_with_its_etag(dist):
    async with client(dist) as http:
        first = await http.get("/")
        again = await http.get("/runs/1", headers={"If-None-Match": first.headers["etag"]})
    assert again.status_code == 304
    assert again.headers["cache-control"] == PAGE_CACHE


async def test_hashed_assets_are_cached_for_a_year(dist):
    async with client(dist) as http:
        reply = await http.get("/assets/index-abc123.js")
        missing = await http.get("/assets/index-gone.js")
    assert reply.status_code == 200
    assert reply.text == SCRIPT
    assert "javascript" in reply.headers["content-type"]
    assert reply.headers["cache-control"] == ASSETS_CACHE
    # A missing asset is a 404, never index.html served as a script.
    assert missing.status_code == 404
    assert missing.json()["code"] == "not_found"


async def test_assets_are_gzipped_for_clients_that_take_it_and_revalidate(dist):
    big = "export const words = " + repr("lorem ipsum " * 500) + ";"
    (dist / "assets" / "chunk-def456.js").write_text(big)
    async with client(dist) as http:
        plain = await http.get("/assets/chunk-def456.js", headers={"Accept-Encoding": "identity"})
        zipped = await http.get("/assets/chunk-def456.js", headers={"Accept-Encoding": "gzip"})
        etag = zipped.headers["etag"]
        again = await http.get("/assets/chunk-def456.js", headers={"If-None-Match": etag})
        nested = await http.get("/assets/deeper/chunk-def456.js")
        hidden = await http.get("/assets/.chunk.js")
    assert plain.text == zipped.text == big  # httpx decodes the gzipped one
    assert "content-encoding" not in plain.headers
    assert zipped.headers["content-encoding"] == "gzip"
    assert int(zipped.headers["content-length"]) < len(big) / 10
    assert zipped.headers["vary"] == "Accept-Encoding"
    assert again.status_code == 304
    assert again.headers["cache-control"] == ASSETS_CACHE
    assert (nested.status_code, hidden.status_code) == (404, 404)


async def test_root_files_of_the_build_are_served_and_nothing_outside_it(dist):
    async with client(dist) as http:
        icon = await http.get("/favicon.svg")
        outside = await http.get("/%2e%2e/secret.txt")
        assets_folder = await http.get("/assets")
    assert icon.text == "<svg/>"
    assert icon.headers["cache-control"] == PAGE_CACHE
    assert outside.text == INDEX
    assert assets_folder.text == INDEX


@pytest.mark.parametrize(
    "path", ["/api/v1/nothing", "/api", "/api/public/nothing", "/v1/nothing", "/healthz/x"]
)
async def test_unknown_api_paths_stay_json_404s(dist, path):
    async with client(dist) as http:
        reply = await http.get(path)
    assert reply.status_code == 404
    assert reply.json()["code"] == "not_found"


async def test_api_routes_and_docs_are_not_shadowed(dist):
    async with client(dist) as http:
        health = await http.get("/healthz")
        document = await http.get("/openapi.json")
        docs = await http.get("/docs")
        wrong_method = await http.delete("/healthz")
        post_page = await http.post("/projects/acme")
    assert health.status_code == 503  # not connected to NATS here: the api's own answer
    assert health.json()["nats"] == "disconnected"
    assert document.json()["info"]["title"] == "Axonal API"
    assert "swagger" in docs.text.lower()
    assert wrong_method.status_code == 405
    assert post_page.status_code == 404
    assert post_page.json()["code"] == "not_found"


async def test_the_ui_routes_are_not_in_the_openapi_document(dist):
    async with client(dist) as http:
        paths = (await http.get("/openapi.json")).json()["paths"]
    assert not [path for path in paths if not is_api_path(path)]


async def test_without_a_build_the_root_says_how_to_make_one(tmp_path):
    async with client(tmp_path / "dist") as http:
        page = await http.get("/")
        deep = await http.get("/projects/acme/demo")
        asset = await http.get("/assets/index-abc123.js")
        health = await http.get("/healthz")
    assert page.status_code == 503
    assert page.headers["content-type"].startswith("text/html")
    assert "not built" in page.text
    assert "make web" in page.text
    assert deep.status_code == 503
    assert asset.status_code == 404
    assert health.json()["nats"] == "disconnected"


async def test_a_build_made_while_the_api_runs_is_served(tmp_path, dist):
    later = tmp_path / "later"
    async with client(later) as http:
        assert (await http.get("/")).status_code == 503
        dist.rename(later)
        assert (await http.get("/")).text == INDEX
        assert (await http.get("/assets/index-abc123.js")).text == SCRIPT


async def test_no_web_dir_serves_no_ui():
    async with client(None) as http:
        reply = await http.get("/")
    assert reply.status_code == 404
    assert reply.json()["code"] == "not_found"


def test_the_web_dir_defaults_to_the_source_tree_build_and_reads_its_variable(
    monkeypatch, tmp_path
):
    monkeypatch.delenv("AXONAL_API_WEB_DIR", raising=False)
    assert ApiSettings().api_web_dir == ROOT / "services" / "web" / "dist"
    monkeypatch.setenv("AXONAL_API_WEB_DIR", str(tmp_path))
    assert ApiSettings().api_web_dir == tmp_path
    monkeypatch.setenv("AXONAL_API_WEB_DIR", "")
    assert ApiSettings().api_web_dir is None
