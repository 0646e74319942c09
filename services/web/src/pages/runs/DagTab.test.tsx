import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { Route, Routes } from "react-router";
import { aRun, type RunList, UUID_A } from "../../test/fixtures";
import { renderPage } from "../../test/render";
import DagTab from "./DagTab";
import { layoutDag, NODE_HEIGHT } from "./dagLayout";

const UPSTREAM = { a: [], b: ["a"], c: ["a"], d: ["b", "c"] };
const kid = (op: string, status: RunList["runs"][number]["status"]) =>
  aRun({ uuid: op.repeat(32).slice(0, 32).replace(/[^0-9a-f]/g, "e"), name: `pipe-${op}`, op_name: op, status, pipeline_uuid: UUID_A });
const fakeApi = vi.hoisted(async () => (await import("../../test/fakeApi")).installFakeApi());
afterEach(async () => (await fakeApi).reset());

test("the layout puts each op below the ops it waits for, one edge per dependency", () => {
  const { nodes, edges } = layoutDag(UPSTREAM, new Map([["a", { uuid: "1", status: "succeeded" }]]));
  const y = Object.fromEntries(nodes.map((n) => [n.id, n.position.y]));
  expect(y.b).toBeGreaterThanOrEqual(y.a + NODE_HEIGHT);
  expect(y.d).toBeGreaterThan(y.c);
  expect(edges.map((e) => e.id).sort()).toEqual(["a->b", "a->c", "b->d", "c->d"]);
  expect(nodes.find((n) => n.id === "a")?.data).toEqual({ name: "a", uuid: "1", status: "succeeded" });
  expect(nodes.find((n) => n.id === "b")?.data.status).toBeNull();
});

function show() {
  return renderPage(
    <Routes>
      <Route path="/projects/:owner/:project/runs/:uuid/dag" element={<DagTab />} />
      <Route path="/projects/:owner/:project/runs/:uuid" element={<h1>run page</h1>} />
    </Routes>,
    `/projects/acme/demo/runs/${UUID_A}/dag`,
  );
}

test("each op shows its live status and opens its run", async () => {
  const kids: RunList = { runs: [kid("a", "succeeded"), kid("b", "running"), kid("c", "failed"), kid("d", "upstream_failed")], total: 4 };
  const api = await fakeApi;
  api.on("GET", `/api/v1/acme/demo/runs/${UUID_A}`, () => aRun({ kind: "dag", status: "running", upstream: UPSTREAM }));
  api.on("GET", "/api/v1/acme/demo/runs", () => kids);
  show();
  const graph = await screen.findByRole("region", { name: "Pipeline graph" });
  expect(graph).toHaveAttribute("data-ops", "4");
  expect(graph).toHaveAttribute("data-edges", "4");
  await waitFor(() => expect(graph.querySelector('[data-op="b"]')).toHaveAttribute("data-status", "running"));
  expect(graph.querySelector('[data-op="d"] [data-status]')).toHaveAttribute("data-status", "upstream_failed");
  expect(api.sent("GET", "/api/v1/acme/demo/runs")[0]?.query.get("pipeline")).toBe(UUID_A);
  // by keyboard (jsdom measures no node, so React Flow keeps them hidden from roles; a
  // browser shows them)
  screen.getByLabelText("op c").focus();
  await userEvent.keyboard("{Enter}");
  expect(await screen.findByText("run page")).toBeInTheDocument();
});

test("a run that is no DAG says so", async () => {
  const api = await fakeApi;
  api.on("GET", `/api/v1/acme/demo/runs/${UUID_A}`, () => aRun());
  api.on("GET", "/api/v1/acme/demo/runs", () => ({ runs: [], total: 0 }) satisfies RunList);
  show();
  expect(await screen.findByText("This run is not a DAG")).toBeInTheDocument();
});
