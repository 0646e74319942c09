import { ApiError } from "../api/client";
import { takeEarly } from "./early";

function started(url: string, response: Response) {
  window.axonalEarly = { url, reply: Promise.resolve(response) };
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

test("index.html asks for the metrics page's first read", async () => {
  const { CHART_POINTS } = await import("./metrics");
  const { readFileSync } = await import("node:fs");
  const html = readFileSync(`${process.cwd()}/index.html`, "utf8");
  expect(html).toContain(`/metrics?points=${CHART_POINTS}`);
});
