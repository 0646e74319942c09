import { ApiError } from "../api/client";
import { takeEarly } from "./early";

function started(url: string, response: Response) {
  window.axonalEarly = { [url]: Promise.resolve(response) };
}

test("an early reply is handed over once, to the same URL only", async () => {
  started("/api/v1/a/b/runs/r/metrics?points=1000", Response.json({ series: [] }));
  expect(takeEarly("/api/v1/a/b/runs/other/metrics?points=1000")).toBeUndefined();
  await expect(takeEarly("/api/v1/a/b/runs/r/metrics?points=1000")).resolves.toEqual({ series: [] });
  expect(takeEarly("/api/v1/a/b/runs/r/metrics?points=1000")).toBeUndefined();
});

test("an early refusal is the api's error", async () => {
  started("/x", Response.json({ code: "not_found", message: "no run r" }, { status: 404 }));
  const reply = takeEarly("/x");
  await expect(reply).rejects.toBeInstanceOf(ApiError);
  await expect(reply).rejects.toThrow("no run r");
});

test("index.html starts a run page's first reads, by the URLs the pages ask for", async () => {
  const { CHART_POINTS, runQuery, seriesQuery } = await import("./metrics");
  const { readFileSync } = await import("node:fs");
  const html = readFileSync(`${process.cwd()}/index.html`, "utf8");
  const script = html.match(/<script>([\s\S]*?)<\/script>/)?.[1] ?? "";
  expect(html).toContain(`/metrics?points=${CHART_POINTS}`);
  const fetched: string[] = [];
  const fetchDouble = vi.fn((url: string) => {
    fetched.push(url);
    return Promise.resolve(Response.json({ uuid: "r" }));
  });
  vi.stubGlobal("fetch", fetchDouble);
  window.history.pushState({}, "", "/projects/a/b/runs/r/metrics");
  new Function(script)();
  expect(fetched).toEqual(["/api/v1/a/b/runs/r", `/api/v1/a/b/runs/r/metrics?points=${CHART_POINTS}`]);
  // the pages' own queries take those replies, once
  await expect(runQuery("a", "b", "r").queryFn()).resolves.toEqual({ uuid: "r" });
  await seriesQuery("a", "b", "r", null).queryFn();
  expect(window.axonalEarly).toEqual({});
  window.history.pushState({}, "", "/projects/a/b/runs/r/logs");
  new Function(script)();
  expect(fetched.slice(2)).toEqual(["/api/v1/a/b/runs/r"]);
  vi.unstubAllGlobals();
  window.history.pushState({}, "", "/");
});
