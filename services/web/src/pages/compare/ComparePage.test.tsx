import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { Route, Routes, useLocation } from "react-router";
import { drawn } from "../../test/fakeUPlot";
import { aComparedRun, aRun, aSeries, type RunComparison, type RunList, type SeriesList, UUID_A, UUID_B } from "../../test/fixtures";
import { renderPage } from "../../test/render";
import ComparePage from "./ComparePage";
import { parseRuns, runLabels } from "./selection";

vi.mock("uplot", async () => ({ default: (await import("../../test/fakeUPlot")).FakeUPlot }));

const UUID_C = "c".repeat(32);
const fakeApi = vi.hoisted(async () => (await import("../../test/fakeApi")).installFakeApi());
afterEach(async () => (await fakeApi).reset());

function Address() {
  const location = useLocation();
  return <output aria-label="address">{location.search}</output>;
}

function show(search: string) {
  return renderPage(
    <Routes>
      <Route
        path="/projects/:owner/:project/compare"
        element={
          <>
            <ComparePage />
            <Address />
          </>
        }
      />
    </Routes>,
    `/projects/acme/demo/compare${search}`,
  );
}

const comparison: RunComparison = {
  runs: [
    aComparedRun({ uuid: UUID_A, name: "lr-small", inputs: { lr: 0.1, epochs: 5 }, metrics: { loss: 0.2 } }),
    aComparedRun({ uuid: UUID_B, name: "lr-big", status: "running", finished_at: null, inputs: { lr: 0.5, epochs: 5 }, metrics: { loss: "NaN" } }),
  ],
  inputs: ["epochs", "lr"],
  outputs: [],
  metrics: ["loss"],
  differing: ["inputs.lr", "metrics.loss"],
};

async function serve() {
  const recent: RunList = { runs: [aRun({ uuid: UUID_C, name: "baseline" })], total: 1 };
  const api = await fakeApi;
  api.on("GET", "/api/v1/acme/demo/compare", () => comparison);
  api.on("GET", "/api/v1/acme/demo/runs", () => recent);
  api.on("GET", `/api/v1/acme/demo/runs/${UUID_A}/metrics`, () => ({ series: [aSeries("loss", 20)] }) satisfies SeriesList);
  api.on("GET", `/api/v1/acme/demo/runs/${UUID_B}/metrics`, () => ({ series: [aSeries("loss", 30, { run_uuid: UUID_B })] }) satisfies SeriesList);
}

test("the runs in the address are compared: params that differ highlighted, metrics overlaid", async () => {
  await serve();
  show(`?runs=${UUID_A},${UUID_B}`);
  const params = await screen.findByRole("table", { name: "Params" });
  const lr = within(params).getByRole("rowheader", { name: "lr" }).closest("tr");
  const epochs = within(params).getByRole("rowheader", { name: "epochs" }).closest("tr");
  expect(lr).toHaveAttribute("data-differs", "true");
  expect(epochs).toHaveAttribute("data-differs", "false");
  const runs = screen.getByRole("table", { name: "Runs" });
  expect(within(runs).getByText("1m 15s")).toBeInTheDocument();
  expect(within(runs).getByText("running")).toHaveAttribute("data-status", "running");
  const chart = await screen.findByRole("img", { name: "metric loss" });
  expect(chart).toHaveAttribute("data-points", "50");
  await waitFor(() => expect(drawn).toHaveLength(1));
  expect(drawn[0].opts.series.slice(1).map((s) => s.label)).toEqual(["lr-small", "lr-big"]);
  expect((await fakeApi).sent("GET", "/api/v1/acme/demo/compare")[0]?.query.getAll("run")).toEqual([UUID_A, UUID_B]);

  await userEvent.click(screen.getByRole("checkbox", { name: "Only differences" }));
  expect(within(screen.getByRole("table", { name: "Params" })).queryByRole("rowheader", { name: "epochs" })).not.toBeInTheDocument();
});

test("a run picked by name joins the address; one removed leaves it", async () => {
  await serve();
  show(`?runs=${UUID_A},${UUID_B}`);
  await screen.findByRole("table", { name: "Params" });
  await userEvent.type(screen.getByRole("combobox", { name: "Run to add" }), "baseline");
  await userEvent.click(screen.getByRole("button", { name: "Add" }));
  expect(screen.getByLabelText("address")).toHaveTextContent(`?runs=${UUID_A}%2C${UUID_B}%2C${UUID_C}`);
  await userEvent.click(screen.getByRole("button", { name: "Remove lr-small" }));
  expect(screen.getByLabelText("address")).toHaveTextContent(`?runs=${UUID_B}%2C${UUID_C}`);
});

test("with no runs chosen the page says how to pick them", async () => {
  await serve();
  show("");
  expect(await screen.findByText("Pick runs to compare")).toBeInTheDocument();
});

test("the address keeps valid uuids once each, at most ten; labels tell same-named runs apart", () => {
  expect(parseRuns(`${UUID_A}, nope,${UUID_A},${UUID_B}`)).toEqual([UUID_A, UUID_B]);
  expect(parseRuns(Array.from({ length: 12 }, (_, i) => i.toString(16).repeat(32)).join(","))).toHaveLength(10);
  const labels = runLabels([
    { uuid: UUID_A, name: "train" },
    { uuid: UUID_B, name: "train" },
    { uuid: UUID_C, name: "eval" },
  ]);
  expect([...labels.values()]).toEqual(["train aaaaaa", "train bbbbbb", "eval"]);
});
