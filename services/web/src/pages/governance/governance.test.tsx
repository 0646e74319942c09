import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { components } from "../../api/schema";
import { fail } from "../../test/fakeApi";
import { renderProjectRoutes, renderRoutes } from "../../test/render";
import { what } from "./AuditPage";
import { quotasSaved, retentionSaved } from "./DataPage";
import { governanceRoutes, orgRoutes } from "./routes";

const fakeApi = vi.hoisted(async () => (await import("../../test/fakeApi")).installFakeApi());

type Schemas = components["schemas"];
const AUDIT = "/api/v1/orgs/acme/audit";
const RETENTION = "/api/v1/projects/acme/demo/retention";
const QUOTAS = "/api/v1/projects/acme/demo/quotas";

afterEach(async () => (await fakeApi).reset());

function entry(id: string, overrides: Partial<Schemas["AuditEntry"]> = {}): Schemas["AuditEntry"] {
  return {
    event_id: id,
    type: "api.write_audited",
    occurred_at: "2026-12-01T10:00:00Z",
    actor: "ada",
    source: "axonal/api",
    project: "acme/demo",
    subject: null,
    data: { method: "PUT", path: "/api/v1/projects/acme/demo/retention", route: "/api/v1/projects/{owner}/{project}/retention", status: 200, client: "10.0.0.7" },
    ...overrides,
  };
}

test("the audit log lists the project's entries newest first, and loads more with the cursor", async () => {
  const api = await fakeApi;
  api.on("GET", AUDIT, (request) =>
    request.query.get("cursor") === "c1"
      ? { entries: [entry("e3", { actor: "bob", data: { method: "DELETE", path: "/api/v1/x", status: 403, client: "10.0.0.9" } })], next_cursor: null }
      : { entries: [entry("e1"), entry("e2", { type: "run.finished", actor: "runner", source: "axonal/runner", data: {} })], next_cursor: "c1" },
  );
  renderProjectRoutes(governanceRoutes, "/projects/acme/demo/audit");
  const table = await screen.findByRole("table", { name: "Audit log" });
  expect(api.sent("GET", AUDIT)[0].query.get("project")).toBe("demo");
  const write = table.querySelector('[data-event-id="e1"]') as HTMLElement;
  expect(write).toHaveTextContent("PUT /api/v1/projects/acme/demo/retention → 200");
  expect(write).toHaveTextContent("10.0.0.7");
  const other = table.querySelector('[data-event-id="e2"]') as HTMLElement;
  expect(other).toHaveTextContent("run.finished");
  expect(other).toHaveTextContent("axonal/runner");

  await userEvent.click(screen.getByRole("button", { name: "Load more" }));
  await waitFor(() => expect(table.querySelector('[data-event-id="e3"]')).toHaveTextContent("DELETE /api/v1/x → 403"));
  expect([...table.querySelectorAll("tbody tr")].map((row) => row.getAttribute("data-event-id"))).toEqual(["e1", "e2", "e3"]);
  expect(screen.queryByRole("button", { name: "Load more" })).not.toBeInTheDocument();
});

test("the audit log's filters and the whole organization go to the api", async () => {
  const api = await fakeApi;
  api.on("GET", AUDIT, () => ({ entries: [entry("e1")], next_cursor: null }));
  renderProjectRoutes(governanceRoutes, "/projects/acme/demo/audit");
  await screen.findByRole("table", { name: "Audit log" });
  const filters = screen.getByRole("search", { name: "Filter audit log" });
  await userEvent.type(within(filters).getByLabelText("Actor"), "ada");
  await userEvent.type(within(filters).getByLabelText("Type"), "api.write_audited");
  await userEvent.type(within(filters).getByLabelText("Since"), "2026-12-01T09:30");
  await userEvent.click(within(filters).getByRole("button", { name: "Apply" }));
  await waitFor(() => expect(api.sent("GET", AUDIT).at(-1)?.query.get("actor")).toBe("ada"));
  const filtered = api.sent("GET", AUDIT).at(-1)?.query;
  expect(filtered?.get("type")).toBe("api.write_audited");
  expect(filtered?.get("since")).toBe(new Date("2026-12-01T09:30").toISOString());
  expect(filtered?.get("project")).toBe("demo");

  await userEvent.click(screen.getByLabelText(/The whole organization acme/));
  await waitFor(() => expect(api.sent("GET", AUDIT).at(-1)?.query.has("project")).toBe(false));
  expect(api.sent("GET", AUDIT).at(-1)?.query.get("actor")).toBe("ada");
});

test("an organization's own audit page has no project filter", async () => {
  const api = await fakeApi;
  api.on("GET", AUDIT, () => ({ entries: [], next_cursor: null }));
  renderRoutes(orgRoutes, "/orgs/acme/audit");
  expect(await screen.findByText("Nothing recorded yet")).toBeInTheDocument();
  expect(api.sent("GET", AUDIT)[0].query.has("project")).toBe(false);
  expect(screen.queryByLabelText(/The whole organization/)).not.toBeInTheDocument();
});

test("the audit log tells one who is not an organization admin so, in the api's words", async () => {
  const api = await fakeApi;
  api.on("GET", AUDIT, () => fail(403, { code: "forbidden", message: "ada is not an admin of acme" }));
  renderProjectRoutes(governanceRoutes, "/projects/acme/demo/audit");
  const alert = await screen.findByRole("alert");
  expect(alert).toHaveTextContent("Only organization admins read the audit log");
  expect(alert).toHaveTextContent("ada is not an admin of acme");
});

test("an api write reads as its method, path and status; other events as their type", () => {
  expect(what(entry("e1"))).toBe("PUT /api/v1/projects/acme/demo/retention → 200");
  expect(what(entry("e2", { type: "project.deleted", data: {} }))).toBe("project.deleted");
});

const project = { project_id: "p1", owner: "acme", name: "demo", updated_at: null };

test("retention and quotas are saved with a PUT each, and what the api kept is shown", async () => {
  const api = await fakeApi;
  api.on("GET", RETENTION, () => ({ ...project, retention: { traces: 30 } }) satisfies Schemas["ProjectRetention"]);
  api.on("PUT", RETENTION, (request) => ({ ...project, retention: request.body as Schemas["RetentionPolicy"], updated_at: "2026-12-01T10:00:00Z" }));
  api.on("GET", QUOTAS, () => ({ ...project, quotas: {} }) satisfies Schemas["ProjectQuotas"]);
  api.on("PUT", QUOTAS, (request) => ({ ...project, quotas: request.body as Schemas["QuotaLimits"] }));
  renderProjectRoutes(governanceRoutes, "/projects/acme/demo/data");

  const retention = await screen.findByRole("form", { name: "Save retention" });
  expect(within(retention).getByLabelText("Traces (days)")).toHaveValue(30);
  await userEvent.clear(within(retention).getByLabelText("Traces (days)"));
  await userEvent.type(within(retention).getByLabelText("Traces (days)"), "7");
  await userEvent.type(within(retention).getByLabelText("Logs (days)"), "90");
  await userEvent.click(within(retention).getByRole("button", { name: "Save retention" }));
  expect(await screen.findByText("Saved: traces 7 days, logs 90 days; the rest kept for ever.")).toBeInTheDocument();
  expect(api.sent("PUT", RETENTION)[0].body).toEqual({ traces: 7, observations: null, scores: null, metrics: null, logs: 90, artifacts: null });
  expect(within(screen.getByRole("form", { name: "Save retention" })).getByLabelText("Logs (days)")).toHaveValue(90);

  const quotas = await screen.findByRole("form", { name: "Save quotas" });
  await userEvent.type(within(quotas).getByLabelText("Concurrent runs"), "4");
  await userEvent.type(within(quotas).getByLabelText("Storage (bytes)"), "1073741824");
  await userEvent.click(within(quotas).getByRole("button", { name: "Save quotas" }));
  expect(await screen.findByText("Saved: concurrent runs 4, storage 1.0 GB; the platform's default for the rest.")).toBeInTheDocument();
  expect(api.sent("PUT", QUOTAS)[0].body).toEqual({ concurrent_runs: 4, spans_per_second: null, points_per_second: null, storage_bytes: 1073741824 });
});

test("a save a viewer may not make shows the api's message, and a fraction is refused before sending", async () => {
  const api = await fakeApi;
  api.on("GET", RETENTION, () => ({ ...project, retention: {} }));
  api.on("PUT", RETENTION, () => fail(403, { code: "forbidden", message: "ada is a viewer of acme/demo; this needs admin" }));
  api.on("GET", QUOTAS, () => ({ ...project, quotas: {} }));
  renderProjectRoutes(governanceRoutes, "/projects/acme/demo/data");
  const retention = await screen.findByRole("form", { name: "Save retention" });
  await userEvent.type(within(retention).getByLabelText("Scores (days)"), "1.5");
  await userEvent.click(within(retention).getByRole("button", { name: "Save retention" }));
  expect(await within(retention).findByText("1.5 is not a whole number")).toBeInTheDocument();
  expect(api.sent("PUT", RETENTION)).toHaveLength(0);

  await userEvent.clear(within(retention).getByLabelText("Scores (days)"));
  await userEvent.type(within(retention).getByLabelText("Scores (days)"), "14");
  await userEvent.click(within(retention).getByRole("button", { name: "Save retention" }));
  expect(await within(retention).findByRole("alert")).toHaveTextContent("this needs admin");
});

test("deleting the project needs its name typed, then goes back to the projects", async () => {
  const api = await fakeApi;
  api.on("GET", RETENTION, () => ({ ...project, retention: {} }));
  api.on("GET", QUOTAS, () => ({ ...project, quotas: {} }));
  api.on("DELETE", "/api/v1/projects/acme/demo", () => ({ scope: "project", target: "p1", request_id: "r1" }) satisfies Schemas["DeletionAccepted"]);
  renderRoutes([{ path: "projects/:owner/:project", children: governanceRoutes }, { index: true, element: <h1>Projects</h1> }], "/projects/acme/demo/data");
  const form = await screen.findByRole("form", { name: "Delete project" });
  const button = within(form).getByRole("button", { name: "Delete project" });
  expect(button).toBeDisabled();
  await userEvent.type(within(form).getByLabelText(/to confirm/), "dem");
  expect(button).toBeDisabled();
  await userEvent.type(within(form).getByLabelText(/to confirm/), "o");
  await userEvent.click(button);
  expect(await screen.findByRole("heading", { name: "Projects" })).toBeInTheDocument();
  expect(api.sent("DELETE", "/api/v1/projects/acme/demo")).toHaveLength(1);
});

test("a deletion the api refuses says why and stays", async () => {
  const api = await fakeApi;
  api.on("GET", RETENTION, () => ({ ...project, retention: {} }));
  api.on("GET", QUOTAS, () => ({ ...project, quotas: {} }));
  api.on("DELETE", "/api/v1/projects/acme/demo", () => fail(403, { code: "forbidden", message: "ada is an admin of acme/demo; deleting it needs owner" }));
  renderProjectRoutes(governanceRoutes, "/projects/acme/demo/data");
  const form = await screen.findByRole("form", { name: "Delete project" });
  await userEvent.type(within(form).getByLabelText(/to confirm/), "demo");
  await userEvent.click(within(form).getByRole("button", { name: "Delete project" }));
  expect(await within(form).findByRole("alert")).toHaveTextContent("deleting it needs owner");
});

test("saved settings read in words", () => {
  expect(retentionSaved({})).toBe("everything kept for ever");
  expect(quotasSaved({ spans_per_second: 1000 })).toBe("spans per second 1,000; the platform's default for the rest");
  expect(quotasSaved({})).toBe("the platform's defaults");
});
