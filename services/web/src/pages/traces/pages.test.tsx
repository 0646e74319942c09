import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { Route, Routes } from "react-router";
import { renderPage } from "../../test/render";
import { rowId } from "./ObservationTree";
import ScoresPage from "./ScoresPage";
import SessionPage from "./SessionPage";
import TracePage from "./TracePage";
import TracesPage from "./TracesPage";
import type { ObservationView, ScorePage, ScoreView, SessionWithTraces, TraceDetail, TracePage as TraceList, TraceView, UserPage } from "./types";
import UsersPage from "./UsersPage";

/** A test double of the api (src/test/fakeApi.ts), answering with bodies of the api's types. */
const fakeApi = vi.hoisted(async () => (await import("../../test/fakeApi")).installFakeApi());
const api = await fakeApi;

const BASE = "/api/v1/acme/chat";
const answer = <T,>(path: string, body: T) => api.on("GET", `${BASE}${path}`, () => body);
const lastQuery = (path: string) => api.sent("GET", `${BASE}${path}`).at(-1)?.query;

// jsdom lays nothing out: give scrollers a size so the virtual lists render the rows in view.
beforeAll(() => {
  for (const [axis, size] of [["Height", 600], ["Width", 1000]] as const) {
    for (const kind of ["client", "offset"]) {
      Object.defineProperty(HTMLElement.prototype, `${kind}${axis}`, { configurable: true, get: () => size });
    }
  }
});

beforeEach(() => {
  api.reset();
});

const T0 = Date.UTC(2026, 0, 1, 12, 0, 0);
const at = (ms: number) => new Date(T0 + ms).toISOString();

function traceView(fields: Partial<TraceView> = {}): TraceView {
  return {
    id: "tr-1",
    project_id: "p1",
    timestamp: at(0),
    name: "chat",
    user_id: "alice",
    session_id: "s-1",
    input: [{ role: "user", content: "weather in Paris?" }],
    output: { role: "assistant", content: "sunny" },
    metadata: { tenant: "acme" },
    tags: ["prod"],
    public: false,
    environment: "default",
    created_at: at(0),
    updated_at: at(0),
    latency: 1.5,
    total_cost: 0.0123,
    input_tokens: 1000,
    output_tokens: 100,
    total_tokens: 1100,
    ...fields,
  };
}

function observation(id: string, parent: string | null, start: number, end: number | null, fields: Partial<ObservationView> = {}): ObservationView {
  return {
    id,
    project_id: "p1",
    trace_id: "tr-1",
    type: "SPAN",
    parent_observation_id: parent,
    name: id,
    start_time: at(start),
    end_time: end == null ? null : at(end),
    created_at: at(start),
    updated_at: at(start),
    level: "DEFAULT",
    environment: "default",
    cost_source: "none",
    total_cost: 0,
    trace_public: false,
    metadata: {},
    model_parameters: {},
    usage_details: {},
    cost_details: {},
    model_prices: {},
    ...fields,
  };
}

function score(fields: Partial<ScoreView> = {}): ScoreView {
  return {
    id: "sc-1",
    project_id: "p1",
    name: "correctness",
    data_type: "NUMERIC",
    value: 0.9,
    source: "API",
    trace_id: "tr-1",
    environment: "default",
    timestamp: at(0),
    created_at: at(0),
    updated_at: at(0),
    metadata: {},
    ...fields,
  };
}

const meta = (total: number, page = 1) => ({ page, limit: 50, total_items: total, total_pages: Math.ceil(total / 50) });

function route(path: string, element: React.ReactElement, url: string) {
  return renderPage(
    <Routes>
      <Route path={`/projects/:owner/:project/${path}`} element={element} />
    </Routes>,
    url,
  );
}

describe("the traces list", () => {
  const row = traceView();

  test("shows each trace with its latency, tokens and cost, linked to it", async () => {
    answer<TraceList>("/traces", { data: [row], meta: meta(1) });
    route("traces", <TracesPage />, "/projects/acme/chat/traces");
    const table = await screen.findByRole("table", { name: "Traces" });
    const cells = within(table).getAllByRole("row")[1];
    expect(within(cells).getByRole("link", { name: "chat" })).toHaveAttribute("href", "/projects/acme/chat/traces/tr-1");
    for (const text of ["1.50 s", "1,000", "100", "1,100", "$0.0123", "alice", "prod"]) expect(cells).toHaveTextContent(text);
  });

  test("filters come from the query string and go back to it", async () => {
    answer<TraceList>("/traces", { data: [row], meta: meta(120) });
    route("traces", <TracesPage />, "/projects/acme/chat/traces?user=alice&tags=a,%20b&page=2");
    await screen.findByRole("table", { name: "Traces" });
    const sent = lastQuery("/traces")!;
    expect(sent.get("user")).toBe("alice");
    expect(sent.getAll("tag")).toEqual(["a", "b"]);
    expect(sent.get("page")).toBe("2");

    const form = screen.getByRole("search", { name: "Filter traces" });
    await userEvent.type(within(form).getByLabelText("Score"), "correctness");
    await userEvent.type(within(form).getByLabelText("Min"), "0.5");
    await userEvent.selectOptions(within(form).getByLabelText("Time"), "24h");
    await waitFor(() => expect(lastQuery("/traces")?.get("score_name")).toBe("correctness"));
    const filtered = lastQuery("/traces")!;
    expect(filtered.get("score_min")).toBe("0.5");
    expect(filtered.get("page")).toBe("1"); // a new filter starts from the first page
    expect(Date.parse(filtered.get("from_timestamp")!)).toBeGreaterThan(Date.now() - 86_400_000 - 60_000);
  });

  test("a project without traces says how to send one", async () => {
    answer<TraceList>("/traces", { data: [], meta: meta(0) });
    route("traces", <TracesPage />, "/projects/acme/chat/traces");
    expect(await screen.findByText("No traces yet")).toBeInTheDocument();
    expect(screen.getByText(/axonal keys create -p acme\/chat/)).toBeInTheDocument();
  });

  test("an api error is shown in words", async () => {
    route("traces", <TracesPage />, "/projects/acme/chat/traces");
    expect(await screen.findByRole("alert")).toHaveTextContent("the fake api has no GET /api/v1/acme/chat/traces");
  });
});

describe("a trace", () => {
  const detail: TraceDetail = {
    trace: traceView(),
    observations: [
      observation("llm", "root", 200, 1200, {
        type: "GENERATION",
        model: "gpt-4o-mini",
        usage_details: { input: 1000, output: 100, total: 1100 },
        total_cost: 0.0123,
        cost_details: { input: 0.01, output: 0.0023, total: 0.0123 },
        input: [
          { role: "system", content: "Be brief." },
          { role: "user", content: "weather in Paris?" },
        ],
        output: { role: "assistant", content: null, tool_calls: [{ id: "c1", type: "function", function: { name: "lookup", arguments: '{"city": "Paris"}' } }] },
      }),
      observation("root", null, 0, 1500),
      observation("tool", "root", 1200, 1500, { type: "TOOL", level: "ERROR", status_message: "tool timed out", input: { city: "Paris" } }),
    ],
    scores: [score(), score({ id: "sc-2", name: "helpful", data_type: "BOOLEAN", value: 1, observation_id: "llm" })],
  };

  test("shows the trace's summary and its observations nested, with duration and cost", async () => {
    answer<TraceDetail>("/traces/tr-1", detail);
    route("traces/:traceId", <TracePage />, "/projects/acme/chat/traces/tr-1");
    expect(await screen.findByRole("heading", { name: "chat" })).toBeInTheDocument();
    expect(screen.getByText("alice").closest("[data-field=user]")).toBeInTheDocument();
    expect(screen.getByText("1,100")).toBeInTheDocument(); // the trace's tokens
    expect(document.querySelector('[data-score-name="correctness"]')).toHaveAttribute("data-score-value", "0.9");
    expect(within(screen.getByRole("group", { name: "Trace input" })).getByText("weather in Paris?")).toBeInTheDocument();

    const tree = screen.getByRole("tree", { name: "Observations" });
    const items = within(tree).getAllByRole("treeitem");
    expect(items.map((i) => [i.dataset.observationName, i.getAttribute("aria-level")])).toEqual([
      ["root", "1"],
      ["llm", "2"],
      ["tool", "2"],
    ]);
    expect(items[1]).toHaveAttribute("data-duration-ms", "1000");
    expect(items[1]).toHaveAttribute("data-cost", "0.0123");
    expect(items[1]).toHaveTextContent("1.00 s");
    expect(items[1]).toHaveTextContent("$0.0123");
    expect(items[0]).toHaveAttribute("aria-expanded", "true");
  });

  test("choosing an observation shows its model, usage, cost, scores and conversation", async () => {
    answer<TraceDetail>("/traces/tr-1", detail);
    route("traces/:traceId", <TracePage />, "/projects/acme/chat/traces/tr-1");
    await userEvent.click(await screen.findByText("llm"));
    const panel = screen.getByRole("region", { name: "Observation llm" });
    expect(within(panel).getByText("gpt-4o-mini")).toBeInTheDocument();
    expect(panel.querySelector("[data-field=usage]")).toHaveTextContent("input 1,000");
    expect(panel.querySelector("[data-field=cost]")).toHaveTextContent("$0.0123");
    expect(panel.querySelector('[data-score-name="helpful"]')).toHaveAttribute("data-score-value", "true");
    const input = within(panel).getByRole("list", { name: "Input messages" });
    expect(within(input).getAllByRole("listitem").map((m) => m.dataset.role)).toEqual(["system", "user"]);
    expect(panel.querySelector('[data-tool="lookup"]')).toHaveTextContent('"Paris"');
  });

  test("the keyboard moves through the tree and folds it", async () => {
    answer<TraceDetail>("/traces/tr-1", detail);
    route("traces/:traceId", <TracePage />, "/projects/acme/chat/traces/tr-1");
    const tree = await screen.findByRole("tree", { name: "Observations" });
    tree.focus();
    await userEvent.keyboard("{ArrowDown}");
    expect(screen.getByRole("treeitem", { selected: true })).toHaveAttribute("data-observation-name", "root");
    await userEvent.keyboard("{ArrowDown}{ArrowDown}");
    const tool = screen.getByRole("treeitem", { selected: true });
    expect(tool).toHaveAttribute("data-observation-name", "tool");
    expect(tree).toHaveAttribute("aria-activedescendant", tool.id);
    expect(screen.getByRole("region", { name: "Observation tool" })).toHaveTextContent("tool timed out");
    await userEvent.keyboard("{ArrowLeft}"); // to the parent
    expect(screen.getByRole("treeitem", { selected: true })).toHaveAttribute("data-observation-name", "root");
    await userEvent.keyboard("{ArrowLeft}"); // collapse it
    expect(within(tree).getAllByRole("treeitem")).toHaveLength(1);
    expect(screen.getByRole("treeitem", { selected: true })).toHaveAttribute("aria-expanded", "false");
    await userEvent.keyboard("{ArrowRight}"); // expand it again
    expect(within(tree).getAllByRole("treeitem")).toHaveLength(3);
  });

  test("a thousand observations render only the rows in view", async () => {
    const many = [observation("root", null, 0, 100_000)];
    for (let i = 0; i < 999; i++) many.push(observation(`step-${i}`, i % 10 ? `step-${i - (i % 10)}` : "root", i * 100, i * 100 + 50));
    answer<TraceDetail>("/traces/tr-1", { ...detail, observations: many, scores: [] });
    const started = performance.now();
    route("traces/:traceId", <TracePage />, "/projects/acme/chat/traces/tr-1");
    const tree = await screen.findByRole("tree", { name: "Observations" });
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(screen.getByText("1,000 shown")).toBeInTheDocument();
    expect(within(tree).getAllByRole("treeitem").length).toBeLessThan(80);
    act(() => tree.focus());
    fireEvent.keyDown(tree, { key: "End" });
    expect(tree).toHaveAttribute("aria-activedescendant", rowId("step-998"));
    expect(screen.getByRole("region", { name: "Observation step-998" })).toBeInTheDocument();
  });
});

test("a session reads as a conversation, each turn linked to its trace", async () => {
  answer<SessionWithTraces>("/sessions/s-1", {
    session: { id: "s-1", project_id: "p1", created_at: at(0), environment: "default", trace_ids: ["tr-1", "tr-2"], trace_count: 2, total_cost: 0.0246 },
    traces: [traceView(), traceView({ id: "tr-2", timestamp: at(5000), input: "and tomorrow?", output: { forecast: "rain" } })],
  });
  route("sessions/:sessionId", <SessionPage />, "/projects/acme/chat/sessions/s-1");
  const turns = within(await screen.findByRole("list", { name: "Conversation" })).getAllByRole("listitem");
  expect(turns.map((t) => t.dataset.traceId)).toEqual(["tr-1", "tr-2"]);
  expect(within(turns[0]).getByRole("link", { name: "chat" })).toHaveAttribute("href", "/projects/acme/chat/traces/tr-1");
  expect(turns[0].querySelector("[data-role=user]")).toHaveTextContent("weather in Paris?");
  expect(turns[0].querySelector("[data-role=assistant]")).toHaveTextContent("sunny");
  expect(turns[1].querySelector("[data-role=user]")).toHaveTextContent("and tomorrow?");
  expect(turns[1].querySelector("[data-role=assistant]")).toHaveTextContent('"rain"');
});

test("users link to their traces", async () => {
  answer<UserPage>("/users", {
    data: [{ user_id: "alice", trace_count: 3, first_seen: at(0), last_seen: at(9000), input_tokens: 3000, output_tokens: 300, total_tokens: 3300, total_cost: 0.5 }],
    meta: meta(1),
  });
  route("users", <UsersPage />, "/projects/acme/chat/users");
  const link = await screen.findByRole("link", { name: "alice" });
  expect(link).toHaveAttribute("href", "/projects/acme/chat/traces?user=alice");
  expect(link.closest("[role=row]")).toHaveTextContent("3,300");
  expect(link.closest("[role=row]")).toHaveTextContent("$0.5000");
});

test("scores filter by source and data type and link to their trace and observation", async () => {
  answer<ScorePage>("/scores", {
    data: [score({ observation_id: "llm", comment: "fine" }), score({ id: "sc-2", name: "tone", data_type: "CATEGORICAL", value: null, string_value: "polite", trace_id: null })],
    meta: meta(2),
  });
  route("scores", <ScoresPage />, "/projects/acme/chat/scores?type=NUMERIC");
  const table = await screen.findByRole("table", { name: "Scores" });
  expect(lastQuery("/scores")?.getAll("data_type")).toEqual(["NUMERIC"]);
  expect(within(table).getByRole("link", { name: "llm" })).toHaveAttribute("href", "/projects/acme/chat/traces/tr-1?observation=llm");
  expect(table.querySelector('[data-score-value="polite"]')).toBeInTheDocument();
  await userEvent.selectOptions(screen.getByLabelText("Source"), "EVAL");
  await waitFor(() => expect(lastQuery("/scores")?.getAll("source")).toEqual(["EVAL"]));
  expect(lastQuery("/scores")?.getAll("data_type")).toEqual(["NUMERIC"]);
});
