"""The web UI in headless Chromium on the embedded stack: charts, a big trace, the bundle.

Targets (issue: web UI):
- a run with 3 metrics x 100,000 steps has its charts drawn within 500 ms of navigation;
- a trace with 1,000 observations has an interactive tree within 1 s, and scrolling it stays
  smooth (frames at 60 Hz: p95 frame time near 16.7 ms);
- the initial JavaScript is at most 300 KB gzipped (routes code-split).

Each page is loaded ``--loads`` times in a fresh browser context after a warm-up (so the HTTP
cache is cold, as on a first visit, but the api's caches are warm); the figures are medians,
from navigation start (``performance.now()`` in the page). The projects page, the lightest
page, is measured the same way in the same run as the reference. Asserts nothing.
Run: ``.venv/bin/python bench/ui.py [--loads 5]`` (needs ``make web`` and Chromium).
"""

from __future__ import annotations

import argparse
import asyncio
import gzip
import json
import os
import re
import secrets
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
from playwright.async_api import Browser, BrowserContext, async_playwright

ROOT = Path(__file__).resolve().parents[1]
DIST = ROOT / "services" / "web" / "dist"
CHROMIUM = os.environ.get("AXONAL_CHROMIUM", "/usr/bin/chromium")
OWNER, NAME = "bench", "ui"
STEPS, METRICS, OBSERVATIONS = 100_000, ("loss", "accuracy", "lr"), 1_000
CHARTS_TARGET_MS, TREE_TARGET_MS, BUNDLE_TARGET_KB, FRAME_TARGET_MS = 500.0, 1000.0, 300.0, 16.7

LOG_METRICS = f"""
import math
from axonal import tracking
run = tracking.init(project="{OWNER}/{NAME}", name="long-training")
for step in range({STEPS}):
    tracking.log_metrics(step=step, loss=1 / (step + 1), accuracy=1 - 1 / (step + 2),
                         lr=0.1 * math.cos(step / {STEPS}) ** 2)
tracking.end()
print(run.uuid)
"""


TOKEN = secrets.token_urlsafe(16)


async def signed_in(browser: Browser) -> BrowserContext:
    """A browser context whose tabs hold the api token (as the UI keeps a typed one)."""
    context = await browser.new_context(viewport={"width": 1400, "height": 900})
    await context.add_init_script(f"sessionStorage.setItem('axonal.token', '{TOKEN}')")
    return context


def _env(home: Path) -> dict[str, str]:
    kept = {k: v for k, v in os.environ.items() if not k.startswith("AXONAL_")}
    # the api's operator token: the CLI sends it, and each page's tab holds it
    return kept | {
        "AXONAL_HOME": str(home),
        "AXONAL_POSTGRES_DURABLE": "false",
        "AXONAL_API_TOKEN": TOKEN,
    }


def _cli(env: dict[str, str], *args: str) -> str:
    script = Path(sys.executable).with_name("axonal")
    done = subprocess.run([str(script), *args], env=env, check=True, capture_output=True, text=True)
    return done.stdout


def initial_js_kb() -> tuple[float, int]:
    """Gzipped KB of the scripts index.html loads before any route's own chunk, and how many."""
    index = (DIST / "index.html").read_text()
    names = set(re.findall(r'(?:src|href)="/(assets/[^"]+\.js)"', index))
    size = sum(len(gzip.compress((DIST / name).read_bytes(), 9)) for name in names)
    return size / 1024, len(names)


def seed_metrics(env: dict[str, str], http: httpx.Client) -> str:
    done = subprocess.run(
        [sys.executable, "-c", LOG_METRICS], env=env, check=True, capture_output=True, text=True
    )
    run_uuid = done.stdout.strip().splitlines()[-1]
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        reply = http.get(f"/api/v1/{OWNER}/{NAME}/runs/{run_uuid}/metrics").json()
        totals = {s["name"]: s["total"] for s in reply["series"]}
        if totals == dict.fromkeys(METRICS, STEPS):
            return run_uuid
        time.sleep(1)
    raise TimeoutError(f"the {STEPS} steps of run {run_uuid} were not all stored")


def _event(kind: str, body: dict[str, Any]) -> dict[str, Any]:
    now = datetime.now(UTC).isoformat()
    return {"id": str(uuid.uuid4()), "timestamp": now, "type": kind, "body": body}


def seed_trace(http: httpx.Client, keys: dict[str, str]) -> str:
    """A trace of 1,000 nested observations (10 spans of 99 children, each child's own events)."""
    trace_id = uuid.uuid4().hex
    start = datetime.now(UTC) - timedelta(minutes=5)
    trace = {"id": trace_id, "name": "big-agent", "timestamp": start.isoformat()}
    events = [_event("trace-create", trace)]
    for i in range(OBSERVATIONS):
        parent = None if i % 100 == 0 else f"{trace_id}-{i - i % 100}"
        begin = start + timedelta(milliseconds=i * 20)
        kind = "generation-create" if i % 10 == 5 else "span-create"
        body: dict[str, Any] = {
            "id": f"{trace_id}-{i}", "traceId": trace_id, "parentObservationId": parent,
            "name": f"step-{i}", "startTime": begin.isoformat(),
            "endTime": (begin + timedelta(milliseconds=15 if parent else 1800)).isoformat(),
            "input": {"i": i}, "output": {"ok": True},
        }  # fmt: skip
        if kind == "generation-create":
            body |= {"model": "gpt-4o-mini", "usageDetails": {"input": 100, "output": 20}}
        events.append(_event(kind, body))
    auth = (keys["public_key"], keys["secret_key"])
    for at in range(0, len(events), 200):
        reply = http.post("/api/public/ingestion", json={"batch": events[at : at + 200]}, auth=auth)
        reply.raise_for_status()
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        got = http.get(f"/api/v1/{OWNER}/{NAME}/traces/{trace_id}")
        if got.status_code == 200 and len(got.json()["observations"]) == OBSERVATIONS:
            return trace_id
        time.sleep(0.5)
    raise TimeoutError(f"trace {trace_id} was not stored with {OBSERVATIONS} observations")


async def _timed(browser: Browser, url: str, ready_js: str) -> float:
    """Milliseconds from navigation start until ``ready_js`` is true, in a fresh context."""
    context = await signed_in(browser)
    try:
        page = await context.new_page()
        await page.goto(url, wait_until="commit")
        handle = await page.wait_for_function(
            f"() => ({ready_js}) ? performance.now() : false", polling="raf", timeout=30_000
        )
        return float(await handle.json_value())
    finally:
        await context.close()


CHARTS_DRAWN = (
    "(() => { const c = document.querySelectorAll('[aria-label^=\"metric \"][data-points]');"
    f" return c.length >= {len(METRICS)} && [...c].every(e => Number(e.dataset.points) > 0)"
    " && [...c].every(e => e.querySelector('canvas')); })()"
)
TREE_READY = "document.querySelectorAll('[data-observation-name]').length > 10"
PROJECTS_READY = "document.querySelector('a[href^=\"/projects/\"]') !== null"


async def tree_interaction(browser: Browser, url: str) -> tuple[float, float, int]:
    """Click-to-detail latency, then the p95 frame time and long frames while the tree scrolls."""
    context = await signed_in(browser)
    try:
        page = await context.new_page()
        await page.goto(url)
        rows = page.locator("[data-observation-name]")
        await rows.nth(3).wait_for()
        started = time.perf_counter()
        await rows.nth(3).click()
        await page.get_by_text("step-3").last.wait_for()
        click_ms = (time.perf_counter() - started) * 1000
        frames: list[float] = await page.evaluate(
            """async () => {
              const row = document.querySelector('[data-observation-name]');
              let el = row.parentElement;
              while (el && el.scrollHeight <= el.clientHeight + 1) el = el.parentElement;
              const deltas = []; let last = performance.now();
              for (let i = 0; i < 120; i++) {
                el.scrollTop += 120;
                await new Promise(r => requestAnimationFrame(r));
                const now = performance.now(); deltas.push(now - last); last = now;
              }
              return deltas;
            }"""
        )
    finally:
        await context.close()
    p95 = statistics.quantiles(frames, n=20)[-1]
    return click_ms, p95, sum(1 for f in frames if f > 50)


async def measure(base: str, run_uuid: str, trace_id: str, loads: int) -> dict[str, list[float]]:
    tree_url = f"{base}projects/{OWNER}/{NAME}/traces/{trace_id}"
    pages = {
        "projects page (reference)": (base, PROJECTS_READY),
        "metrics: 3 charts of 100k steps": (
            f"{base}projects/{OWNER}/{NAME}/runs/{run_uuid}/metrics", CHARTS_DRAWN),
        "trace: tree of 1,000 observations": (tree_url, TREE_READY),
    }  # fmt: skip
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=["--no-sandbox"]
        )
        try:
            times: dict[str, list[float]] = {name: [] for name in pages}
            for name, (url, ready) in pages.items():
                await _timed(browser, url, ready)  # warm-up
                for _ in range(loads):
                    times[name].append(await _timed(browser, url, ready))
            click, p95, long_frames = await tree_interaction(browser, tree_url)
            times["tree: click to detail"] = [click]
            times["tree: scroll p95 frame"] = [p95]
            times["tree: frames over 50 ms (of 120)"] = [float(long_frames)]
            return times
        finally:
            await browser.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--loads", type=int, default=5, help="Measured loads per page.")
    loads = max(1, parser.parse_args().loads)
    if not (DIST / "index.html").is_file():
        sys.exit("the UI is not built: run `make web` first")
    bundle_kb, scripts = initial_js_kb()
    with tempfile.TemporaryDirectory() as tmp:
        env = _env(Path(tmp))
        _cli(env, "up", "--detach")
        try:
            status = json.loads(_cli(env, "status", "--json"))
            headers = {"Authorization": f"Bearer {TOKEN}"}
            with httpx.Client(base_url=status["api_url"], timeout=60, headers=headers) as http:
                _cli(env, "project", "create", f"{OWNER}/{NAME}")
                keys = json.loads(_cli(env, "keys", "create", "-p", f"{OWNER}/{NAME}", "--json"))
                run_uuid = seed_metrics(env, http)
                trace_id = seed_trace(http, keys)
            times = asyncio.run(measure(status["ui_url"], run_uuid, trace_id, loads))
        finally:
            subprocess.run(
                [str(Path(sys.executable).with_name("axonal")), "down"],
                env=env, check=False, capture_output=True,
            )  # fmt: skip
    reference = statistics.median(times["projects page (reference)"])
    print(f"web UI in headless Chromium, {loads} cold loads per page (median ms from navigation)")
    for name, values in times.items():
        value = statistics.median(values)
        print(f"  {name:<36} {value:8.1f}   x{value / reference:5.2f} of the reference")
    charts = statistics.median(times["metrics: 3 charts of 100k steps"])
    shown = statistics.median(times["trace: tree of 1,000 observations"])
    tree = shown + times["tree: click to detail"][0]
    frame = times["tree: scroll p95 frame"][0]
    print(f"  initial JavaScript: {bundle_kb:.1f} KB gzipped in {scripts} file(s)")
    for label, value, target, unit in (
        ("charts drawn", charts, CHARTS_TARGET_MS, "ms"),
        ("tree interactive (shown + first click answered)", tree, TREE_TARGET_MS, "ms"),
        ("tree scroll p95 frame", frame, FRAME_TARGET_MS * 2, "ms"),
        ("initial JavaScript", bundle_kb, BUNDLE_TARGET_KB, "KB"),
    ):
        verdict = "met" if value <= target else "MISSED"
        ratio = value / target
        print(f"  target: {label} <= {target:g} {unit}: {value:.1f} {unit} ({ratio:.2f}) {verdict}")


if __name__ == "__main__":
    main()
