import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { components } from "../../api/schema";
import type { FormValues } from "../../components/Form";
import { renderProjectRoutes } from "../../test/render";
import { automationBody } from "./AutomationsPage";
import { connectionBody } from "./ConnectionsPage";
import { formatPrice, modelBody } from "./ModelPricesPage";
import { eventsRoutes } from "./routes";

const fakeApi = vi.hoisted(async () => (await import("../../test/fakeApi")).installFakeApi());

type Schemas = components["schemas"];
const V1 = "/api/v1/acme/demo";
const at = "2026-12-01T10:00:00Z";

afterEach(async () => (await fakeApi).reset());

const slack: Schemas["ConnectionInfo"] = {
  id: "c".repeat(32),
  project: "acme/demo",
  name: "team",
  kind: "slack",
  url: "https://hooks.slack.com",
  description: "",
  enabled: true,
  created_at: at,
  consecutive_failures: 0,
};

test("connections are listed masked and each links to its deliveries", async () => {
  const api = await fakeApi;
  api.on("GET", `${V1}/connections`, () => ({ connections: [slack] }) satisfies Schemas["ConnectionList"]);
  api.on("GET", `${V1}/connections/team`, () => slack);
  api.on("GET", `${V1}/connections/team/deliveries`, () => ({ deliveries: [] }) satisfies Schemas["DeliveryList"]);
  renderProjectRoutes(eventsRoutes, "/projects/acme/demo/connections");
  const table = await screen.findByRole("table", { name: "Connections" });
  expect(within(table).getByText("https://hooks.slack.com")).toBeInTheDocument();
  await userEvent.click(within(table).getByRole("link", { name: "team" }));
  expect(await screen.findByRole("heading", { name: "team" })).toBeInTheDocument();
  expect(await screen.findByText("No deliveries yet")).toBeInTheDocument();
  expect(screen.getByRole("button", { name: "Replay all dead" })).toBeInTheDocument();
});

test("an email connection asks for SMTP settings instead of a URL", async () => {
  const api = await fakeApi;
  api.on("GET", `${V1}/connections`, () => ({ connections: [] }));
  renderProjectRoutes(eventsRoutes, "/projects/acme/demo/connections");
  const form = await screen.findByRole("form", { name: "Create connection" });
  expect(within(form).getByLabelText("URL")).toBeInTheDocument();
  await userEvent.selectOptions(within(form).getByLabelText("Kind"), "email");
  expect(within(form).queryByLabelText("URL")).not.toBeInTheDocument();
  expect(within(form).getByLabelText(/SMTP host/)).toBeInTheDocument();
  const values: FormValues = {
    name: "mail",
    kind: "email",
    "smtp.host": "smtp.example.com",
    "smtp.port": "465",
    "smtp.security": "tls",
    "smtp.username": "",
    "smtp.password": "pw",
    "smtp.sender": "axonal@example.com",
    "smtp.to": "a@example.com, b@example.com",
    description: "",
  };
  expect(connectionBody(values)).toEqual({
    name: "mail",
    kind: "email",
    description: "",
    smtp: { host: "smtp.example.com", port: 465, security: "tls", username: undefined, password: "pw", sender: "axonal@example.com", to: ["a@example.com", "b@example.com"] },
  });
  expect(connectionBody({ name: "pd", kind: "pagerduty", url: "", routing_key: "R123", description: "" })).toEqual({
    name: "pd",
    kind: "pagerduty",
    description: "",
    url: undefined,
    routing_key: "R123",
  });
});

const rule: Schemas["AutomationInfo"] = {
  id: "d".repeat(32),
  project: "acme/demo",
  name: "retrain",
  action: "start",
  event: "dataset.updated",
  external: true,
  source: "lake",
  where: { "data.kind": "parquet" },
  hub_ref: "retrain",
  polyaxonfile: null,
  params: {},
  params_from: { dataset: "data.uri" },
  queue: null,
  enabled: true,
  created_at: at,
  firings: 2,
};

test("automations show their trigger and action, and their firings link to the runs they started", async () => {
  const api = await fakeApi;
  api.on("GET", `${V1}/automations`, () => ({ automations: [rule] }) satisfies Schemas["AutomationList"]);
  api.on(
    "GET",
    `${V1}/automations/:id/firings`,
    () =>
      ({
        firings: [
          { automation_id: rule.id, event_id: "ev2", event_type: "dataset.updated", at, outcome: "started", run_uuid: "f".repeat(32) },
          { automation_id: rule.id, event_id: "ev1", event_type: "dataset.updated", at, outcome: "failed", detail: "the event has no data.uri" },
        ],
      }) satisfies Schemas["FiringList"],
  );
  renderProjectRoutes(eventsRoutes, "/projects/acme/demo/automations");
  const table = await screen.findByRole("table", { name: "Automations" });
  const row = within(table).getAllByRole("row")[1];
  expect(row).toHaveTextContent("dataset.updated external from lake data.kind = \"parquet\"");
  expect(row).toHaveTextContent("start retrain with params from the event");
  await userEvent.click(within(row).getByRole("link", { name: "retrain" }));
  const firings = await screen.findByRole("table", { name: "Firings" });
  const [started, failed] = within(firings).getAllByRole("row").slice(1);
  expect(within(started).getByText("started")).toHaveAttribute("data-status", "started");
  expect(within(started).getByRole("link")).toHaveAttribute("href", `/projects/acme/demo/runs/${"f".repeat(32)}`);
  expect(failed).toHaveTextContent("the event has no data.uri");
  expect(failed).toHaveAttribute("data-outcome", "failed");
});

test("an automation's form reads params and conditions as key = value lines", () => {
  const values: FormValues = {
    name: "retrain",
    action: "start",
    event: "dataset.updated",
    external: true,
    source: "lake",
    where: "data.kind = parquet\ndata.rows = 3",
    hub_ref: "",
    polyaxonfile: "version: 1.1",
    params: "lr = 0.01",
    params_from: "dataset = data.uri",
    queue: "",
    enabled: true,
  };
  expect(automationBody(values)).toEqual({
    name: "retrain",
    action: "start",
    event: "dataset.updated",
    external: true,
    source: "lake",
    where: { "data.kind": "parquet", "data.rows": 3 },
    enabled: true,
    hub_ref: undefined,
    polyaxonfile: "version: 1.1",
    params: { lr: 0.01 },
    params_from: { dataset: "data.uri" },
    queue: undefined,
  });
  expect(() => automationBody({ ...values, where: "nonsense" })).toThrow('"nonsense" is not key = value');
  expect(automationBody({ name: "retry", action: "restart", event: "run.failed", external: false, where: "", enabled: true })).toEqual({
    name: "retry",
    action: "restart",
    event: "run.failed",
    external: false,
    source: undefined,
    where: {},
    enabled: true,
  });
});

test("alert rules and routes are listed; a value check takes no threshold", async () => {
  const api = await fakeApi;
  api.on(
    "GET",
    `${V1}/alerts`,
    () =>
      ({
        rules: [{ id: "1".repeat(32), project: "acme/demo", metric: "loss", comparison: "gt", threshold: 5, for_points: 3, hysteresis: 0.5, tags: ["nightly"], created_at: at }],
      }) satisfies Schemas["AlertRuleList"],
  );
  api.on(
    "GET",
    `${V1}/alert-routes`,
    () =>
      ({
        routes: [{ id: "2".repeat(32), project: "acme/demo", connection: "team", events: ["metric.crossed"], kinds: [], statuses: [], tags: [], dedup_seconds: 300, description: "", created_at: at, suppressed: 4 }],
      }) satisfies Schemas["AlertRouteList"],
  );
  api.on("GET", `${V1}/connections`, () => ({ connections: [slack] }));
  api.on("POST", `${V1}/alerts`, (request) => ({ ...(request.body as Schemas["AlertCondition"]), id: "3".repeat(32), project: "acme/demo", created_at: at }));
  renderProjectRoutes(eventsRoutes, "/projects/acme/demo/alerts");
  const rules = await screen.findByRole("table", { name: "Alert rules" });
  expect(within(rules).getByText("loss > 5")).toBeInTheDocument();
  const routes = await screen.findByRole("table", { name: "Alert routes" });
  expect(within(routes).getByRole("link", { name: "team" })).toHaveAttribute("href", "/projects/acme/demo/connections/team");
  expect(within(routes).getByText("4")).toBeInTheDocument();

  const form = screen.getByRole("form", { name: "Create alert rule" });
  await userEvent.type(within(form).getByLabelText(/Metric/), "loss");
  await userEvent.selectOptions(within(form).getByLabelText("Comparison"), "is_nan");
  expect(within(form).queryByLabelText(/Threshold/)).not.toBeInTheDocument();
  await userEvent.click(within(form).getByRole("button", { name: "Create alert rule" }));
  await waitFor(() => expect(api.sent("POST", `${V1}/alerts`)).toHaveLength(1));
  expect(api.sent("POST", `${V1}/alerts`)[0].body).toEqual({ metric: "loss", comparison: "is_nan", threshold: null, for_points: 1, hysteresis: 0, tags: [] });
  expect(screen.getByRole("form", { name: "Create alert route" })).toHaveTextContent("team");
});

const standard = (prices: Record<string, number>): Schemas["PricingTier"] => ({ name: "standard", is_default: true, priority: 0, conditions: [], prices });

test("model prices show the project's own apart from the built-in ones, per million tokens", async () => {
  const api = await fakeApi;
  api.on("GET", "/api/v1/acme/demo/llm-models", () => ({
    data: [
      { id: "own", project_id: "p1", model_name: "my-tune", match_pattern: "^my-tune$", unit: "TOKENS", tiers: [standard({ input: 0.000002, output: 0.000008 })], managed: false, created_at: at },
      {
        id: "gpt",
        model_name: "gpt-4o",
        match_pattern: "(?i)^gpt-4o$",
        unit: "TOKENS",
        tiers: [
          standard({ input: 0.0000025 }),
          { name: "long", is_default: false, priority: 1, conditions: [{ usage_detail_pattern: "input", operator: "gt", value: 200000, case_sensitive: false }], prices: { input: 0.000005 } },
        ],
        managed: true,
      },
    ],
    meta: { page: 1, limit: 100, total_items: 2, total_pages: 1 },
  }) satisfies Schemas["ModelPage"]);
  renderProjectRoutes(eventsRoutes, "/projects/acme/demo/llm-models");
  const table = await screen.findByRole("table", { name: "Model prices" });
  const [own, builtIn] = within(table).getAllByRole("row").slice(1);
  expect(own).toHaveAttribute("data-source", "project");
  expect(builtIn).toHaveAttribute("data-source", "built-in");
  expect(own).toHaveTextContent("input $2 / 1M");
  expect(own).toHaveTextContent("output $8 / 1M");
  expect(builtIn).toHaveTextContent("long when input gt 200,000: input $5 / 1M");
  expect(within(own).getByRole("button", { name: "Delete" })).toBeInTheDocument();
  expect(within(builtIn).queryByRole("button", { name: "Delete" })).not.toBeInTheDocument();
});

test("a model price typed per million tokens is sent per token", () => {
  const values: FormValues = {
    model_name: "my-tune",
    match_pattern: "^my-tune$",
    unit: "TOKENS",
    input: "3",
    output: "15",
    prices: "input_cached_tokens = 0.3",
    start_date: "",
    tokenizer_model: "",
    tiers: "",
  };
  const body = modelBody(values);
  expect(body.tiers).toHaveLength(1);
  expect(body.tiers[0].prices.input).toBeCloseTo(0.000003);
  expect(body.tiers[0].prices.output).toBeCloseTo(0.000015);
  expect(body.tiers[0].prices.input_cached_tokens).toBeCloseTo(0.0000003);
  expect(modelBody({ ...values, unit: "IMAGES", input: "0.04", output: "", prices: "" }).tiers[0].prices).toEqual({ input: 0.04 });
  expect(() => modelBody({ ...values, input: "", output: "", prices: "" })).toThrow("give at least one price");
  expect(() => modelBody({ ...values, tiers: "{" })).toThrow("not valid JSON");
  expect(formatPrice(0.0000025, "TOKENS")).toBe("$2.5 / 1M");
  expect(formatPrice(0.04, "IMAGES")).toBe("$0.04");
});

test("a new API key's secret is shown once with the SDK's environment; a key is revoked after confirming", async () => {
  const api = await fakeApi;
  const key: Schemas["ApiKeyInfo"] = { id: "k1", public_key: "pk-ax-1", secret_hint: "wxyz", note: "ci", project: { id: "p1", owner: "acme", name: "demo" }, created_at: at, owner: "ada", role: "member" };
  let keys: Schemas["ApiKeyInfo"][] = [key];
  const base = "/api/v1/projects/acme/demo/api-keys";
  api.on("GET", base, () => ({ keys }) satisfies Schemas["ApiKeyList"]);
  api.on("POST", base, () => ({ ...key, id: "k2", public_key: "pk-ax-2", note: "traces", secret_key: "sk-ax-s3cret" }) satisfies Schemas["ApiKeyCreated"]);
  api.on("DELETE", `${base}/:key`, () => {
    keys = [];
    return { keys } satisfies Schemas["ApiKeyList"];
  });
  renderProjectRoutes(eventsRoutes, "/projects/acme/demo/api-keys");
  const table = await screen.findByRole("table", { name: "API keys" });
  expect(within(table).getByText("pk-ax-1")).toBeInTheDocument();
  expect(within(table).getByText("ada (member)")).toBeInTheDocument();
  expect(within(table).getByText("…wxyz")).toBeInTheDocument();

  await userEvent.click(screen.getByText("New API key"));
  const form = screen.getByRole("form", { name: "Create API key" });
  await userEvent.type(within(form).getByLabelText("Note"), "traces");
  await userEvent.click(within(form).getByRole("button", { name: "Create API key" }));
  const dialog = await screen.findByRole("dialog", { name: "The new key's secret" });
  expect(within(dialog).getByLabelText("Secret")).toHaveTextContent("sk-ax-s3cret");
  expect(dialog).toHaveTextContent("you will not see this again");
  expect(within(dialog).getByLabelText("SDK environment")).toHaveTextContent("LANGFUSE_SECRET_KEY=sk-ax-s3cret");
  expect(api.sent("POST", base)[0].body).toEqual({ note: "traces" });
  const user = userEvent.setup();
  await user.click(within(dialog).getByRole("button", { name: "Copy" }));
  expect(await navigator.clipboard.readText()).toBe("sk-ax-s3cret");
  await user.click(within(dialog).getByRole("button", { name: "I have stored it" }));
  expect(screen.queryByText("sk-ax-s3cret")).not.toBeInTheDocument();

  await user.click(within(table).getByRole("button", { name: "Revoke" }));
  await user.click(within(screen.getByRole("dialog", { name: "Revoke" })).getByRole("button", { name: "Revoke" }));
  expect(await screen.findByText("No API keys yet")).toBeInTheDocument();
  expect(api.sent("DELETE", `${base}/pk-ax-1`)).toHaveLength(1);
});
