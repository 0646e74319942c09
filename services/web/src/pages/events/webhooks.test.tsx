import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { components } from "../../api/schema";
import { fail } from "../../test/fakeApi";
import { renderProjectRoutes } from "../../test/render";
import { isWaiting, newestFirst } from "./DeliveryLog";
import { eventsRoutes } from "./routes";

const fakeApi = vi.hoisted(async () => (await import("../../test/fakeApi")).installFakeApi());

type WebhookInfo = components["schemas"]["WebhookInfo"];
type DeliveryInfo = components["schemas"]["DeliveryInfo"];
type DeliveryAttempt = components["schemas"]["DeliveryAttempt"];

const HOOK_ID = "a".repeat(32);
const BASE = "/api/v1/acme/demo/webhooks";

const hook: WebhookInfo = {
  id: HOOK_ID,
  project: "acme/demo",
  url: "https://ci.example.com/hook",
  events: ["run.*"],
  kinds: [],
  statuses: ["failed"],
  tags: [],
  description: "CI",
  enabled: true,
  created_at: "2026-12-01T10:00:00Z",
  consecutive_failures: 0,
};

const attempt = (number: number, status_code: number | null, error: string | null = null): DeliveryAttempt => ({
  number,
  at: `2026-12-01T10:0${number}:00Z`,
  status_code,
  latency_ms: 12.4,
  response_excerpt: status_code === 200 ? "ok" : "upstream down",
  error,
});

const delivery = (id: string, status: DeliveryInfo["status"], created_at: string, attempts: DeliveryAttempt[]): DeliveryInfo => ({
  id,
  target_id: HOOK_ID,
  event_type: "axonal.run.failed",
  status,
  attempts,
  created_at,
  updated_at: created_at,
  next_attempt_at: null,
});

afterEach(async () => (await fakeApi).reset());

test("the webhooks page lists subscriptions and links each to its log", async () => {
  const api = await fakeApi;
  api.on("GET", BASE, () => ({ webhooks: [hook] }));
  renderProjectRoutes(eventsRoutes, "/projects/acme/demo/webhooks");
  const table = await screen.findByRole("table", { name: "Webhooks" });
  const link = within(table).getByRole("link", { name: hook.url });
  expect(link).toHaveAttribute("href", `/projects/acme/demo/webhooks/${HOOK_ID}`);
  expect(within(table).getByText("run.*")).toBeInTheDocument();
  expect(within(table).getByText(/statuses: failed/)).toBeInTheDocument();
  expect(within(table).getByText("enabled")).toHaveAttribute("data-enabled", "true");
});

test("an empty project says which CLI line adds a webhook", async () => {
  const api = await fakeApi;
  api.on("GET", BASE, () => ({ webhooks: [] }));
  renderProjectRoutes(eventsRoutes, "/projects/acme/demo/webhooks");
  expect(await screen.findByText("No webhooks yet")).toBeInTheDocument();
  expect(screen.getByText(/axonal webhooks create .* -p acme\/demo/)).toBeInTheDocument();
});

test("creating a webhook sends lists, shows the secret once, then refreshes the list", async () => {
  const api = await fakeApi;
  let hooks: WebhookInfo[] = [];
  api.on("GET", BASE, () => ({ webhooks: hooks }));
  api.on("POST", BASE, (request) => {
    hooks = [hook];
    return { ...hook, ...(request.body as object), secret: "whsec_c2VjcmV0" } satisfies WebhookInfo;
  });
  renderProjectRoutes(eventsRoutes, "/projects/acme/demo/webhooks");
  const form = await screen.findByRole("form", { name: "Create webhook" });
  await userEvent.type(within(form).getByLabelText(/URL/), hook.url);
  await userEvent.type(within(form).getByLabelText(/Events/), "run.*, metric.crossed");
  await userEvent.type(within(form).getByLabelText("Only statuses"), "failed");
  await userEvent.click(within(form).getByRole("button", { name: "Create webhook" }));
  const dialog = await screen.findByRole("dialog", { name: "The signing secret" });
  expect(within(dialog).getByLabelText("Secret")).toHaveTextContent("whsec_c2VjcmV0");
  expect(dialog).toHaveTextContent("you will not see this again");
  expect(api.sent("POST", BASE)[0].body).toEqual({
    url: hook.url,
    events: ["run.*", "metric.crossed"],
    kinds: [],
    statuses: ["failed"],
    tags: [],
    description: "",
  });
  await screen.findByRole("table", { name: "Webhooks" });
  await userEvent.click(within(dialog).getByRole("button", { name: "I have stored it" }));
  expect(screen.queryByText("whsec_c2VjcmV0")).not.toBeInTheDocument();
});

test("the api's refusal of a new webhook is shown next to the field it names", async () => {
  const api = await fakeApi;
  api.on("GET", BASE, () => ({ webhooks: [] }));
  api.on("POST", BASE, () =>
    fail(422, { code: "invalid", message: "the request is not valid", details: [{ location: "body.events.0", message: "Value error, unknown event type 'run.done_'" }] }),
  );
  renderProjectRoutes(eventsRoutes, "/projects/acme/demo/webhooks");
  const form = await screen.findByRole("form", { name: "Create webhook" });
  await userEvent.type(within(form).getByLabelText(/URL/), hook.url);
  await userEvent.type(within(form).getByLabelText(/Events/), "run.done_");
  await userEvent.click(within(form).getByRole("button", { name: "Create webhook" }));
  expect(await within(form).findByText("unknown event type 'run.done_'")).toBeInTheDocument();
  expect(within(form).getByLabelText(/Events/)).toHaveAttribute("aria-invalid", "true");
});

test("deleting a webhook asks first", async () => {
  const api = await fakeApi;
  api.on("GET", BASE, () => ({ webhooks: [hook] }));
  api.on("DELETE", `${BASE}/:id`, () => ({ webhooks: [] }));
  renderProjectRoutes(eventsRoutes, "/projects/acme/demo/webhooks");
  await userEvent.click(await screen.findByRole("button", { name: "Delete" }));
  expect(api.sent("DELETE", `${BASE}/${HOOK_ID}`)).toHaveLength(0);
  const dialog = screen.getByRole("dialog", { name: "Delete" });
  await userEvent.click(within(dialog).getByRole("button", { name: "Delete" }));
  await waitFor(() => expect(api.sent("DELETE", `${BASE}/${HOOK_ID}`)).toHaveLength(1));
});

test("deliveries are shown newest first and polled only while one waits", () => {
  const old = delivery("e1", "delivered", "2026-12-01T10:00:00Z", [attempt(1, 200)]);
  const recent = delivery("e2", "dead", "2026-12-01T11:00:00Z", [attempt(1, 503)]);
  expect(newestFirst([old, recent]).map((d) => d.id)).toEqual(["e2", "e1"]);
  expect(isWaiting([old, recent])).toBe(false);
  expect(isWaiting([old, { ...recent, status: "failed" }])).toBe(true);
  expect(isWaiting([{ ...old, status: "pending" }])).toBe(true);
});

test("a replayed delivery visibly goes back to pending, then shows its new attempt", async () => {
  const api = await fakeApi;
  const failed = [attempt(1, 503, "HTTP 503")];
  let current = delivery("e2", "dead", "2026-12-01T11:00:00Z", failed);
  const older = delivery("e1", "delivered", "2026-12-01T10:00:00Z", [attempt(1, 200)]);
  let reads = 0;
  api.on("GET", BASE, () => ({ webhooks: [hook] }));
  api.on("GET", `${BASE}/:id/deliveries`, () => {
    reads += 1;
    // The worker sends it again between the log's reads.
    if (current.status === "pending" && reads > 2) current = { ...current, status: "delivered", attempts: [...failed, attempt(2, 200)] };
    return { deliveries: [older, current] };
  });
  api.on("POST", `${BASE}/:id/deliveries/:delivery/replay`, () => {
    current = { ...current, status: "pending" };
    return { replayed: 1 };
  });
  renderProjectRoutes(eventsRoutes, `/projects/acme/demo/webhooks/${HOOK_ID}`);
  expect(await screen.findByRole("heading", { name: hook.url })).toBeInTheDocument();
  const table = await screen.findByRole("table", { name: "Deliveries" });
  const rows = within(table).getAllByRole("row").slice(1);
  expect(rows.map((r) => r.getAttribute("data-delivery-id"))).toEqual(["e2", "e1"]);
  const row = rows[0];
  expect(within(row).getByText("dead")).toHaveAttribute("data-status", "dead");
  expect(within(row).getByText("503")).toHaveAttribute("data-response-code", "503");
  expect(within(row).getByText("HTTP 503")).toBeInTheDocument();
  expect(within(row).getByText("upstream down")).toBeInTheDocument();

  await userEvent.click(within(row).getByRole("button", { name: "Replay" }));
  await userEvent.click(within(screen.getByRole("dialog", { name: "Replay" })).getByRole("button", { name: "Replay" }));
  expect(api.sent("POST", `${BASE}/${HOOK_ID}/deliveries/e2/replay`)).toHaveLength(1);
  expect(await screen.findByText("1 delivery queued again")).toBeInTheDocument();
  await waitFor(() => expect(table.querySelector('[data-delivery-id="e2"]')).toHaveAttribute("data-status", "pending"));
  expect(screen.getByText(/Refreshing every 2 s/)).toBeInTheDocument();
  await waitFor(() => expect(table.querySelector('[data-delivery-id="e2"]')).toHaveAttribute("data-status", "delivered"), { timeout: 6_000 });
  expect(table.querySelector('[data-delivery-id="e2"]')).toHaveAttribute("data-attempts", "2");
  expect(screen.queryByText(/Refreshing every/)).not.toBeInTheDocument();

  await userEvent.click(within(table).getByRole("button", { name: "Attempts of e2" }));
  const attempts = within(table).getByRole("table", { name: "Attempts" });
  expect(within(attempts).getAllByRole("row").slice(1).map((r) => r.getAttribute("data-attempt"))).toEqual(["2", "1"]);
}, 10_000);

test("dead deliveries of a time window are replayed with the window in the body", async () => {
  const api = await fakeApi;
  api.on("GET", BASE, () => ({ webhooks: [hook] }));
  api.on("GET", `${BASE}/:id/deliveries`, () => ({ deliveries: [] }));
  api.on("POST", `${BASE}/:id/replay`, () => ({ replayed: 3 }));
  renderProjectRoutes(eventsRoutes, `/projects/acme/demo/webhooks/${HOOK_ID}`);
  expect(await screen.findByText("No deliveries yet")).toBeInTheDocument();
  await userEvent.type(screen.getByLabelText("Replay from"), "2026-12-01T10:00");
  await userEvent.click(screen.getByRole("button", { name: "Replay dead in window" }));
  const dialog = screen.getByRole("dialog", { name: "Replay dead in window" });
  expect(dialog).toHaveTextContent("created from");
  await userEvent.click(within(dialog).getByRole("button", { name: "Replay dead in window" }));
  expect(await screen.findByText("3 deliveries queued again")).toBeInTheDocument();
  expect(api.sent("POST", `${BASE}/${HOOK_ID}/replay`)[0].body).toEqual({ since: new Date("2026-12-01T10:00").toISOString(), until: null });
});

test("the status filter asks the api for that status only", async () => {
  const api = await fakeApi;
  api.on("GET", BASE, () => ({ webhooks: [hook] }));
  api.on("GET", `${BASE}/:id/deliveries`, () => ({ deliveries: [] }));
  renderProjectRoutes(eventsRoutes, `/projects/acme/demo/webhooks/${HOOK_ID}`);
  await userEvent.selectOptions(await screen.findByLabelText("Only deliveries with status"), "dead");
  expect(await screen.findByText("No dead deliveries")).toBeInTheDocument();
  expect(api.sent("GET", `${BASE}/${HOOK_ID}/deliveries`).map((r) => r.query.get("status"))).toEqual([null, "dead"]);
});

test("an unknown webhook says so", async () => {
  const api = await fakeApi;
  api.on("GET", BASE, () => ({ webhooks: [] }));
  api.on("GET", `${BASE}/:id/deliveries`, () => fail(404, { code: "not_found", message: "not found" }));
  renderProjectRoutes(eventsRoutes, `/projects/acme/demo/webhooks/${HOOK_ID}`);
  expect(await screen.findByRole("alert")).toHaveTextContent(`No webhook ${HOOK_ID} in acme/demo.`);
});
