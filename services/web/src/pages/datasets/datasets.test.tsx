import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { components } from "../../api/schema";
import { renderProjectRoutes } from "../../test/render";
import { datasetsRoutes } from "./routes";

const fakeApi = vi.hoisted(async () => (await import("../../test/fakeApi")).installFakeApi());

type Schemas = components["schemas"];
const V1 = "/api/v1/acme/demo";
const at = "2026-12-01T10:00:00Z";
const meta = { page: 1, limit: 100, total_items: 2, total_pages: 1 };

afterEach(async () => (await fakeApi).reset());

function run(id: string, name: string): Schemas["DatasetRun"] {
  return { id, project_id: "p1", name, dataset_id: "d1", dataset_name: "qa/capitals", created_at: at, updated_at: at };
}

function item(id: string, expected: string, version = at): Schemas["DatasetItem"] {
  return { id, project_id: "p1", dataset_id: "d1", dataset_name: "qa/capitals", status: "ACTIVE", input: { country: id }, expected_output: expected, created_at: at, updated_at: version, version };
}

test("the datasets list links each dataset, folders kept in its path", async () => {
  const api = await fakeApi;
  const dataset: Schemas["Dataset"] = { id: "d1", project_id: "p1", name: "qa/capitals", description: "capitals", input_schema: { type: "object" }, created_at: at, updated_at: at };
  api.on("GET", `${V1}/datasets`, () => ({ data: [dataset], meta }) satisfies Schemas["DatasetPage"]);
  renderProjectRoutes(datasetsRoutes, "/projects/acme/demo/datasets");
  const table = await screen.findByRole("table", { name: "Datasets" });
  expect(within(table).getByRole("link", { name: "qa/capitals" })).toHaveAttribute("href", "/projects/acme/demo/datasets/qa/capitals");
  expect(within(table).getByText("input")).toBeInTheDocument();
});

test("a dataset shows its items, as of a time too, and links two runs to their comparison", async () => {
  const api = await fakeApi;
  api.on("GET", `${V1}/datasets/qa%2Fcapitals/items`, (request) =>
    request.query.get("version")
      ? { data: [item("Japan", "Tokio")], meta }
      : ({ data: [item("France", "Paris"), item("Japan", "Tokyo")], meta } satisfies Schemas["DatasetItemPage"]),
  );
  api.on("GET", `${V1}/datasets/qa%2Fcapitals/runs`, () => ({ data: [run("r1", "first"), run("r2", "second")], meta }) satisfies Schemas["DatasetRunPage"]);
  renderProjectRoutes(datasetsRoutes, "/projects/acme/demo/datasets/qa/capitals");
  const items = await screen.findByRole("table", { name: "Items" });
  expect(within(items).getByText("Tokyo")).toBeInTheDocument();
  const asOf = screen.getByLabelText("Items as of");
  await userEvent.type(asOf, "2026-11-30T10:00");
  expect(await screen.findByText("Tokio")).toBeInTheDocument();

  const runs = await screen.findByRole("table", { name: "Runs" });
  await userEvent.click(within(runs).getByLabelText("Compare first"));
  await userEvent.click(within(runs).getByLabelText("Compare second"));
  expect(screen.getByRole("link", { name: "Compare 2 runs" })).toHaveAttribute(
    "href",
    "/projects/acme/demo/experiments/compare?dataset=qa%2Fcapitals&run=r1&run=r2",
  );
});

test("runs compared show each item's outputs, scores, latency and cost side by side", async () => {
  const api = await fakeApi;
  const comparison: Schemas["ExperimentComparison"] = {
    runs: [run("r1", "first"), run("r2", "second")],
    rows: [
      {
        dataset_item_id: "jp",
        input: { country: "Japan" },
        expected_output: "Tokyo",
        cells: [
          { run_id: "r1", trace_id: "t1", output: "Tokyo", scores: { exact: 1 }, latency: 1.5, total_cost: 0.25, level: "DEFAULT" },
          { run_id: "r2", trace_id: "t2", output: "Paris", scores: { exact: 0 }, latency: 0.5, total_cost: 0.5, level: "ERROR" },
        ],
      },
      { dataset_item_id: "fr", input: { country: "France" }, expected_output: "Paris", cells: [null, { run_id: "r2", trace_id: "t3", output: "Paris", scores: {}, total_cost: 0, level: "DEFAULT" }] },
    ],
    averages: [{ exact: 1 }, { exact: 0.5, latency: 0.5, total_cost: 0.5 }],
  };
  api.on("GET", `${V1}/experiments/compare`, () => comparison);
  renderProjectRoutes(datasetsRoutes, "/projects/acme/demo/experiments/compare?dataset=qa%2Fcapitals&run=r1&run=r2");
  const table = await screen.findByRole("table", { name: "Runs compared" });
  const japan = within(table).getAllByRole("row")[1];
  expect(japan).toHaveAttribute("data-item-id", "jp");
  expect(within(japan).getByText("exact 1")).toBeInTheDocument();
  expect(within(japan).getByText(/error/)).toBeInTheDocument();
  expect(within(table).getByText("not run")).toBeInTheDocument();
  expect(within(table).getByText("exact 0.5")).toBeInTheDocument();
  expect(within(table).getByText("cost $0.5000")).toBeInTheDocument();
  const sent = api.requests.find((r) => r.path.endsWith("/experiments/compare"));
  expect(sent?.query.getAll("run")).toEqual(["r1", "r2"]);
  expect(sent?.query.get("dataset")).toBe("qa/capitals");
});
