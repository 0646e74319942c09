"""The embedded stack serves the web UI at its ``ui_url``, in a real browser.

With the UI built (``make web``: ``services/web/dist``) the session's stack serves it and the
test checks that build. Without one, a stack of this module's own serves a small stand-in
build (``AXONAL_API_WEB_DIR``): an index.html and a hashed module script under ``/assets``.
"""

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from axonal_testing.browser import screenshot
from axonal_testing.stack import RunningStack, running_stack

BUILT = Path(__file__).resolve().parents[3] / "services" / "web" / "dist"
TITLE = "Axonal UI stand-in"
STAND_IN = f"""<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>{TITLE}</title>
<script type="module" src="/assets/index-5f3e2a1b.js"></script></head>
<body><h1 id="root">the script did not run</h1></body>
</html>
"""
SCRIPT = "document.getElementById('root').textContent = 'served by the api: ' + location.pathname;"
DEEP_LINK = "projects/acme/demo/runs/0123456789abcdef"


@dataclass(frozen=True)
class ServedUi:
    stack: RunningStack
    dist: Path

    @property
    def url(self) -> str:
        return str(self.stack.status["ui_url"])

    @property
    def stand_in(self) -> bool:
        return self.dist != BUILT

    @property
    def index(self) -> str:
        return (self.dist / "index.html").read_text()


@pytest.fixture(scope="module")
def served(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[ServedUi]:
    if (BUILT / "index.html").is_file():
        yield ServedUi(request.getfixturevalue("stack"), BUILT)
        return
    dist = tmp_path_factory.mktemp("web-dist")
    (dist / "assets").mkdir()
    (dist / "index.html").write_text(STAND_IN)
    (dist / "assets" / "index-5f3e2a1b.js").write_text(SCRIPT)
    with running_stack(tmp_path_factory, "ui-stack", {"AXONAL_API_WEB_DIR": str(dist)}) as stack:
        yield ServedUi(stack, dist)


def expected_title(index_html: str) -> str:
    found = re.search(r"<title>(.*?)</title>", index_html, re.DOTALL | re.IGNORECASE)
    return found.group(1).strip() if found else ""


async def test_the_ui_is_served_at_the_root_and_at_deep_links(served: ServedUi, page):
    assert served.url == f"{served.stack.status['api_url']}/"
    failed_assets: list[str] = []

    def check_asset(response) -> None:
        if "/assets/" in response.url and response.status >= 400:
            failed_assets.append(f"{response.status} {response.url}")

    page.on("response", check_asset)

    for path in ("", DEEP_LINK):
        reply = await page.goto(served.url + path)
        assert reply is not None
        assert reply.status == 200, path
        assert await reply.text() == served.index, path
        assert reply.headers["cache-control"] == "no-cache"
        if served.stand_in:
            assert await page.title() == TITLE
            root = page.locator("#root")
            assert await root.text_content() == f"served by the api: /{DEEP_LINK if path else ''}"
        else:  # the real UI may retitle its pages; it keeps a title
            assert await page.title() or expected_title(served.index)
    assert failed_assets == []
    shot = await screenshot(page, "ui-served-deep-link")
    assert shot.stat().st_size > 0

    # The API keeps its own paths: an unknown one is the API's JSON 404, not the UI.
    missing = await page.request.get(f"{served.stack.status['api_url']}/api/v1/nothing-here")
    assert missing.status == 404
    assert json.loads(await missing.text())["code"] == "not_found"
