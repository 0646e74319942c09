/**
 * The runs pages against `fakeApi` (src/test/fakeApi.ts), a test double of the api's HTTP
 * answers (bodies typed with the generated schema, so a shape drift fails tsc).
 */
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { createMemoryRouter, RouterProvider } from "react-router";
import type { components } from "../../api/schema";
import { fail } from "../../test/fakeApi";
import { runsRoutes } from "./routes";

type Schemas = components["schemas"];
const fakeApi = vi.hoisted(async () => (await import("../../test/fakeApi")).installFakeApi());

const BASE = "/api/v1/acme/demo/runs";
const UUID = "0123456789abcdef0123456789abcdef";

function runInfo(extra: Partial<Schemas["RunInfo"]> = {}): Schemas["RunInfo"] {
  return {
    uuid: UUID,
    owner: "acme",
    project: "demo",
    name: "train",
    kind: "job",
    status: "succeeded",
    queue: "default",
    agent: "agent-1",
    attempt: 1,
    is_approved: true,
    inputs: { lr: 0.1 },
    outputs: { loss: 0.25 },
    created_at: "2026-12-01T10:00:00Z",
    started_at: "2026-12-01T10:00:00Z",
    finished_at: "2026-12-01T10:01:15Z",
    children: 0,
    managed: true,
    tags: ["cv"],
    compiled: {
      run_kind: "job",
      inputs: [{ name: "lr", type: "float", value: 0.1, source: "cli" }],
      context_params: { seed: { value: 7 } },
      run: { kind: "job" },
    },
    ...extra,
  };
}

function artifact(extra: Partial<Schemas["ArtifactRecord"]>): Schemas["ArtifactRecord"] {
  return { run_uuid: UUID, project: "acme/demo", name: "x", kind: "file", is_input: false, path: `acme/demo/${UUID}/x`, size: 10, sha256: "a".repeat(64), created_at: "2026-12-01T10:00:00Z", ...extra };
}

function renderAt(path: string) {
  const router = createMemoryRouter([{ path: "/projects/:owner/:project", children: runsRoutes }], { initialEntries: [path] });
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return router;
}

beforeAll(() => {
  // jsdom has no modal dialogs
  HTMLDialogElement.prototype.showModal = function (this: HTMLDialogElement) {
    this.open = true;
  };
  HTMLDialogElement.prototype.close = function (this: HTMLDialogElement) {
    this.open = false;
  };
  // jsdom lays nothing out: give scrolling boxes a size so virtual lists render rows
  vi.spyOn(HTMLElement.prototype, "clientHeight", "get").mockReturnValue(600);
  vi.spyOn(HTMLElement.prototype, "clientWidth", "get").mockReturnValue(1000);
});
beforeEach(async () => {
  (await fakeApi).reset();
  sessionStorage.clear();
});

test("the runs list shows its filters from the URL, sends them to the api and pages", async () => {
  const api = await fakeApi;
  const list: Schemas["RunList"] = { runs: [runInfo(), runInfo({ uuid: "f".repeat(32), name: null, status: "running", kind: "dag", tags: [] })], total: 120 };
  api.on("GET", BASE, () => list);
  const router = renderAt("/projects/acme/demo/runs?status=running&tag=cv&tag=gpu&name=tra&page=2");
  const table = await screen.findByRole("table", { name: "Runs" });
  expect(within(table).getByRole("link", { name: "train" })).toHaveAttribute("href", `/projects/acme/demo/runs/${UUID}`);
  expect(within(table).getByRole("link", { name: "ffffffff" })).toBeInTheDocument();
  expect(table.querySelector('[data-status="running"]')).not.toBeNull();
  expect(screen.getByText("51–52 of 120")).toBeInTheDocument();
  const sent = api.requests[0].query;
  expect(sent.get("status")).toBe("running");
  expect(sent.getAll("tag")).toEqual(["cv", "gpu"]);
  expect(sent.get("name")).toBe("tra");
  expect(sent.get("offset")).toBe("50");
  expect(screen.getByLabelText("Name")).toHaveValue("tra");

  await userEvent.selectOptions(screen.getByLabelText("Kind"), "dag");
  await userEvent.click(screen.getByRole("button", { name: "Apply" }));
  const params = router.state.location.search;
  expect(params).toContain("kind=dag");
  expect(params).not.toContain("page="); // new filters start at the first page
});

test("a project without runs tells how to start one", async () => {
  const api = await fakeApi;
  api.on("GET", BASE, () => ({ runs: [], total: 0 } satisfies Schemas["RunList"]));
  renderAt("/projects/acme/demo/runs");
  expect(await screen.findByText("No runs yet")).toBeInTheDocument();
  expect(screen.getByText(/axonal run -f polyaxonfile.yaml --project acme\/demo/)).toBeInTheDocument();
});

test("a run shows its header, tabs, overview, timeline and spec as YAML", async () => {
  const api = await fakeApi;
  api.on("GET", `${BASE}/${UUID}`, () => runInfo({ kind: "matrix" }));
  api.on("GET", `${BASE}/${UUID}/statuses`, () =>
    ({
      run_uuid: UUID,
      changes: [
        { status: "created", at: "2026-12-01T10:00:00Z" },
        { status: "succeeded", reason: "Completed", message: "exit 0", at: "2026-12-01T10:01:15Z" },
      ],
    } satisfies Schemas["StatusHistory"]),
  );
  renderAt(`/projects/acme/demo/runs/${UUID}`);
  expect(await screen.findByRole("heading", { name: "train" })).toBeInTheDocument();
  const tabs = screen.getByRole("tablist");
  expect(within(tabs).getAllByRole("tab").map((t) => t.textContent)).toEqual(["Overview", "Logs", "Metrics", "Trials", "Artifacts", "Lineage"]);
  expect(screen.getAllByText("1m 15s").length).toBeGreaterThan(0);
  const timeline = await screen.findByRole("list", { name: "Status timeline" });
  expect(within(timeline).getByText("Completed")).toBeInTheDocument();
  expect(within(timeline).getByText("exit 0")).toBeInTheDocument();
  expect(screen.getByText("agent-1")).toBeInTheDocument();
  const params = screen.getByRole("table", { name: "Params" });
  expect(within(params).getByRole("row", { name: /lr 0.1 float cli/ })).toBeInTheDocument();
  expect(within(params).getByRole("row", { name: /seed 7 – context/ })).toBeInTheDocument();
  expect(await screen.findByLabelText("Compiled spec as YAML", {}, { timeout: 5000 })).toHaveTextContent("run_kind: job");
});

test("an action is confirmed, posted, and the api's refusal is shown", async () => {
  const api = await fakeApi;
  api.on("GET", `${BASE}/${UUID}`, () => runInfo({ status: "failed" }));
  api.on("GET", `${BASE}/${UUID}/statuses`, () => ({ run_uuid: UUID, changes: [] } satisfies Schemas["StatusHistory"]));
  api.on("POST", `${BASE}/${UUID}/resume`, () => fail(409, { code: "conflict", message: "the run cannot be resumed now" }));
  renderAt(`/projects/acme/demo/runs/${UUID}`);
  const actions = await screen.findByRole("group", { name: "Run actions" });
  expect(within(actions).queryByRole("button", { name: "Stop" })).toBeNull(); // a failed run does not stop
  await userEvent.click(within(actions).getByRole("button", { name: "Resume" }));
  const dialog = screen.getByRole("dialog", { name: "Resume" });
  await userEvent.click(within(dialog).getByRole("button", { name: "Resume" }));
  expect(await within(dialog).findByRole("alert")).toHaveTextContent("the run cannot be resumed now");
  expect(api.requests.some((r) => r.method === "POST" && r.path.endsWith("/resume"))).toBe(true);
});

function sseBody(text: string): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  return new ReadableStream({
    start(controller) {
      controller.enqueue(bytes.slice(0, 40)); // a chunk boundary in the middle of an event
      controller.enqueue(bytes.slice(40));
      controller.close();
    },
  });
}

test("logs stream with the token, tell stderr apart, and search with a count", async () => {
  const api = await fakeApi;
  sessionStorage.setItem("axonal.token", "secret");
  api.on("GET", `${BASE}/${UUID}`, () => runInfo());
  const lines: Schemas["LogLine"][] = [
    { seq: 1, at: "2026-12-01T10:00:01Z", stream: "stdout", line: "epoch 1 loss 0.5" },
    { seq: 2, at: "2026-12-01T10:00:02Z", stream: "stderr", line: "warning: slow" },
    { seq: 3, at: "2026-12-01T10:00:03Z", stream: "stdout", line: "epoch 2 loss 0.25" },
  ];
  const wire = lines.map((l) => `id: ${l.seq}\nevent: log\ndata: ${JSON.stringify(l)}\n\n`).join("") + "event: done\ndata: {}\n\n";
  api.on("GET", `${BASE}/${UUID}/logs/stream`, () => new Response(sseBody(wire), { headers: { "content-type": "text/event-stream" } }));
  renderAt(`/projects/acme/demo/runs/${UUID}/logs`);
  const log = await screen.findByRole("log", { name: "Log lines" });
  await waitFor(() => expect(log.querySelectorAll("[data-seq]")).toHaveLength(3));
  expect(log.querySelector('[data-seq="2"]')).toHaveAttribute("data-stream", "stderr");
  expect(await screen.findByText("3 lines, complete")).toBeInTheDocument();
  const stream = api.requests.find((r) => r.path.endsWith("/logs/stream"));
  expect(stream?.headers.get("Authorization")).toBe("Bearer secret");

  await userEvent.type(screen.getByLabelText("Search the logs"), "EPOCH");
  expect(screen.getByTestId("log-matches")).toHaveTextContent("2 of 3 lines match");
  expect(log.querySelectorAll("mark")).toHaveLength(2);
  expect(log.querySelector('[data-seq="2"]')).toBeNull();

  const follow = screen.getByRole("checkbox", { name: /Follow the tail/ });
  expect(follow).toBeChecked();
  log.focus();
  await userEvent.keyboard("{PageUp}"); // reading up stops following
  expect(follow).not.toBeChecked();
});

test("artifacts are listed, downloaded through the api and previewed by kind", async () => {
  const api = await fakeApi;
  api.on("GET", `${BASE}/${UUID}`, () => runInfo());
  const confusion = artifact({ name: "cm", kind: "confusion", path: `acme/demo/${UUID}/confusion/cm.json` });
  const table = artifact({ name: "preds", kind: "dataframe", path: `acme/demo/${UUID}/dataframe/preds.csv` });
  api.on("GET", `${BASE}/${UUID}/artifacts`, () => ({ artifacts: [confusion, table] } satisfies Schemas["ArtifactList"]));
  api.on("GET", `${BASE}/${UUID}/artifacts/confusion/cm.json`, () => ({ x_labels: ["cat", "dog"], y_labels: ["cat", "dog"], z: [[5, 1], [2, 7]] }));
  api.on("GET", `${BASE}/${UUID}/artifacts/dataframe/preds.csv`, () => new Response('id,label\n1,"cat, maybe"\n2,dog\n'));
  renderAt(`/projects/acme/demo/runs/${UUID}/artifacts`);
  await userEvent.click(await screen.findByRole("button", { name: "Preview cm" }));
  const matrix = await screen.findByRole("table", { name: "Preview of cm" });
  expect(within(matrix).getByText("7")).toHaveAttribute("data-value", "7");
  await userEvent.click(screen.getByRole("button", { name: "Preview preds" }));
  const rows = await screen.findByRole("table", { name: "Preview of preds" });
  expect(within(rows).getByText("cat, maybe")).toBeInTheDocument();

  const createObjectURL = vi.fn(() => "blob:fake");
  Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() });
  const click = vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(() => undefined);
  await userEvent.click(screen.getByRole("button", { name: "Download preds" }));
  await waitFor(() => expect(click).toHaveBeenCalled());
  expect(createObjectURL).toHaveBeenCalledTimes(1);
  expect(click.mock.contexts[0]).toMatchObject({ download: "preds.csv", href: "blob:fake" });
});

test("lineage links the runs upstream and downstream", async () => {
  const api = await fakeApi;
  api.on("GET", `${BASE}/${UUID}`, () => runInfo());
  const producer = "a".repeat(32);
  api.on("GET", `${BASE}/${UUID}/lineage`, () =>
    ({
      run_uuid: UUID,
      inputs: [{ artifact: artifact({ name: "data", is_input: true }), produced_by: [producer], consumed_by: [] }],
      outputs: [],
    } satisfies Schemas["Lineage"]),
  );
  renderAt(`/projects/acme/demo/runs/${UUID}/lineage`);
  const upstream = await screen.findByRole("region", { name: "Inputs (upstream)" });
  expect(within(upstream).getByRole("link", { name: "aaaaaaaa" })).toHaveAttribute("href", `/projects/acme/demo/runs/${producer}`);
});

test("a log stream cut short resumes after the last line it got (Last-Event-ID)", async () => {
  const api = await fakeApi;
  api.on("GET", `${BASE}/${UUID}`, () => runInfo({ status: "running" }));
  const line = (seq: number): Schemas["LogLine"] => ({ seq, at: "2026-12-01T10:00:01Z", stream: "stdout", line: `line ${seq}` });
  const event = (l: Schemas["LogLine"]) => `id: ${l.seq}\nevent: log\ndata: ${JSON.stringify(l)}\n\n`;
  let calls = 0;
  api.on("GET", `${BASE}/${UUID}/logs/stream`, () => {
    calls++;
    const wire = calls === 1 ? event(line(1)) : event(line(2)) + "event: done\ndata: {}\n\n";
    return new Response(sseBody(wire), { headers: { "content-type": "text/event-stream" } });
  });
  renderAt(`/projects/acme/demo/runs/${UUID}/logs`);
  expect(await screen.findByText("2 lines, complete", {}, { timeout: 5000 })).toBeInTheDocument();
  const streams = api.requests.filter((r) => r.path.endsWith("/logs/stream"));
  expect(streams.map((r) => r.headers.get("Last-Event-ID"))).toEqual([null, "1"]);
});
