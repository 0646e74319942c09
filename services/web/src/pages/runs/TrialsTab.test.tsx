import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { Route, Routes } from "react-router";
import { fail } from "../../test/fakeApi";
import { aComparedRun, aRun, type RunComparison, type RunInfo, type RunList, type StudyView, UUID_A } from "../../test/fixtures";
import { renderPage } from "../../test/render";
import TrialsTab from "./TrialsTab";
import { axisOf, bestTrial, sortTrials, sweptParams, type Trial } from "./trials";

const trial = (i: number, lr: number, loss: number | "NaN" | null, status: RunList["runs"][number]["status"] = "succeeded") => ({
  run: aRun({ uuid: String(i).repeat(32), name: `sweep-${i}`, status, pipeline_uuid: UUID_A, inputs: { lr, epochs: 3 } }),
  compared: aComparedRun({ uuid: String(i).repeat(32), name: `sweep-${i}`, metrics: loss === null ? {} : { loss, acc: 0.5 } }),
});
const TRIALS = [trial(1, 0.1, 0.4), trial(2, 0.2, 0.15), trial(3, 0.3, "NaN"), trial(4, 0.4, null, "running")];

const fakeApi = vi.hoisted(async () => (await import("../../test/fakeApi")).installFakeApi());
afterEach(async () => (await fakeApi).reset());
// jsdom lays nothing out: give the table's scroller a size, so that its rows are rendered
beforeEach(() => {
  vi.spyOn(HTMLElement.prototype, "clientHeight", "get").mockReturnValue(420);
  vi.spyOn(HTMLElement.prototype, "clientWidth", "get").mockReturnValue(1000);
});
afterEach(() => vi.restoreAllMocks());

async function show(objective: RunList["runs"][number]["objective"], sweep: Partial<RunInfo> = {}) {
  const kids: RunList = { runs: TRIALS.map((t) => t.run), total: TRIALS.length };
  const api = await fakeApi;
  api.on("GET", `/api/v1/acme/demo/runs/${UUID_A}`, () => aRun({ kind: "matrix", status: "running", objective, ...sweep }));
  api.on("GET", "/api/v1/acme/demo/runs", () => kids);
  api.on("GET", "/api/v1/acme/demo/compare", (request) => {
    const wanted = request.query.getAll("run");
    const body: RunComparison = { runs: TRIALS.map((t) => t.compared).filter((r) => wanted.includes(r.uuid)), inputs: [], outputs: [], metrics: ["acc", "loss"], differing: [] };
    return body;
  });
  return renderPage(
    <Routes>
      <Route path="/projects/:owner/:project/runs/:uuid/trials" element={<TrialsTab />} />
      <Route path="/projects/:owner/:project/runs/:uuid" element={<p>the run page</p>} />
    </Routes>,
    `/projects/acme/demo/runs/${UUID_A}/trials`,
  );
}

test("the trials with their swept params and objective, the best one by the spec's direction marked", async () => {
  await show({ metric: "loss", optimization: "minimize" });
  const table = await screen.findByRole("table", { name: "Trials" });
  const section = screen.getByRole("region", { name: "Trials" });
  await within(table).findByText("0.15");
  expect(section).toHaveAttribute("data-best", "2".repeat(32));
  expect(within(table).getByLabelText("best trial").closest('[role="row"]')).toHaveTextContent("sweep-2");
  expect(within(table).getByRole("button", { name: "Sort by lr" })).toBeInTheDocument();
  expect(within(table).queryByRole("button", { name: "Sort by epochs" })).not.toBeInTheDocument(); // the same in every trial
  expect(screen.getByRole("img", { name: /params against loss, 2 trials/ })).toBeInTheDocument();

  await userEvent.selectOptions(screen.getByRole("combobox", { name: "Optimization" }), "maximize");
  expect(section).toHaveAttribute("data-best", "1".repeat(32));
  await userEvent.selectOptions(screen.getByRole("combobox", { name: "Plot" }), "lr");
  expect(screen.getByRole("img", { name: /lr against loss/ })).toBeInTheDocument();
});

test("a sweep that names no objective lets the user pick a metric", async () => {
  await show(null);
  await screen.findByRole("table", { name: "Trials" });
  const select = await screen.findByRole("combobox", { name: "Objective metric" });
  expect(select).toHaveValue("acc");
  await userEvent.selectOptions(select, "loss");
  expect(screen.getByRole("region", { name: "Trials" })).toHaveAttribute("data-best", "1".repeat(32)); // maximize
});

const rows: Trial[] = [
  { uuid: "1", name: "t1", status: "succeeded", params: { lr: 0.1, opt: "sgd" }, objective: 0.4 },
  { uuid: "2", name: "t2", status: "succeeded", params: { lr: 0.01, opt: "adam" }, objective: NaN },
  { uuid: "3", name: "t3", status: "failed", params: { lr: 1, opt: "adam" }, objective: 0.9 },
];

test("rows sort by any column, those without a value last", () => {
  expect(sortTrials(rows, "objective", false).map((t) => t.uuid)).toEqual(["1", "3", "2"]);
  expect(sortTrials(rows, "objective", true).map((t) => t.uuid)).toEqual(["3", "1", "2"]);
  expect(sortTrials(rows, "param:lr", false).map((t) => t.uuid)).toEqual(["2", "1", "3"]);
  expect(sortTrials(rows, "param:opt", false).map((t) => t.uuid)).toEqual(["2", "3", "1"]);
});

test("the best trial skips the ones without an objective; swept params are those that vary", () => {
  expect(bestTrial(rows, "minimize")?.uuid).toBe("1");
  expect(bestTrial(rows, "maximize")?.uuid).toBe("3");
  expect(bestTrial([rows[1]], "maximize")).toBeNull();
  expect(sweptParams([{ lr: 1, seed: 0 }, { lr: 2, seed: 0 }])).toEqual(["lr"]);
  expect(sweptParams([{ lr: 1, seed: 0 }])).toEqual(["lr", "seed"]);
});

test("an axis places numbers by value and other values by their order", () => {
  const numbers = axisOf([1, 3, 2]);
  expect([1, 2, 3].map(numbers.position)).toEqual([0, 0.5, 1]);
  const words = axisOf(["sgd", "adam", "sgd"]);
  expect(words.position("adam")).toBe(0);
  expect(words.ticks.map((t) => t.label)).toEqual(["adam", "sgd"]);
});

const STUDY = `/api/v1/acme/demo/runs/${UUID_A}/study`;
const TPE = { compiled: { matrix: { kind: "tpe", search_space: { params: {} } } } };
const aStudyTrial = (number: number, state: StudyView["trials"][number]["state"], value: number | null, lr: number, opt: string) => ({
  number,
  run_uuid: String(number + 1).repeat(32),
  params: { lr, opt },
  state,
  value,
});
const ADAPTIVE: StudyView = {
  sweep_uuid: UUID_A,
  kind: "tpe",
  state: "running",
  metric: "loss",
  direction: "minimize",
  budget: 6,
  trials: [
    aStudyTrial(0, "complete", 0.4, 0.1, "sgd"),
    aStudyTrial(1, "complete", 0.15, 0.2, "adam"),
    aStudyTrial(2, "pruned", null, 0.3, "sgd"),
    aStudyTrial(3, "failed", null, 0.4, "adam"),
    aStudyTrial(4, "complete", 0.3, 0.05, "sgd"),
    aStudyTrial(5, "running", null, 0.5, "adam"),
  ],
  best_trial: 1,
  importances: { opt: 0.25, lr: 0.75 },
  approximations: ["params.lr: qloguniform is sampled log-uniform then quantized to 0.01"],
};

test("an adaptive sweep shows its study: header, history, parallel coordinates, importances", async () => {
  const api = await fakeApi;
  api.on("GET", STUDY, () => ADAPTIVE);
  await show({ metric: "loss", optimization: "minimize" }, TPE);
  const history = await screen.findByRole("region", { name: "Optimisation history" });
  expect(document.querySelector(".study-head")).toHaveTextContent("tpe search · running · 5 / 6 trials, 1 running · minimize loss · best: trial #1 (0.15)");
  expect(screen.getByRole("note")).toHaveTextContent("params.lr: qloguniform");

  expect(history).toHaveAttribute("data-points", "3");
  expect(history).toHaveAttribute("data-pruned", "1");
  expect(history).toHaveAttribute("data-failed", "1");
  expect(history).toHaveAttribute("data-best-trial", "1");
  expect(history.querySelectorAll('circle[data-state="complete"]')).toHaveLength(3);
  expect(history.querySelector('[data-state="pruned"]')).toHaveAttribute("data-trial", "2");
  expect(history.querySelector("[data-best-so-far]")).toHaveAttribute("data-best-so-far", "3");

  const parallel = screen.getByRole("region", { name: "Parallel coordinates" });
  expect(parallel).toHaveAttribute("data-lines", "3");
  expect(parallel.querySelectorAll("polyline[data-trial]")).toHaveLength(3);
  expect([...parallel.querySelectorAll("[data-axis]")].map((a) => a.getAttribute("data-axis"))).toEqual(["lr", "opt", "loss"]);

  const importances = screen.getByRole("region", { name: "Param importances" });
  expect(within(importances).getAllByRole("listitem").map((li) => li.textContent)).toEqual(["lr75.0%", "opt25.0%"]);

  expect(screen.getByRole("table", { name: "Trials" })).toBeInTheDocument(); // the trials' table stays
  expect(screen.queryByRole("combobox", { name: "Plot" })).not.toBeInTheDocument(); // the study's plots replace the params plot

  await userEvent.click(within(history).getByRole("link", { name: "best trial #1" }));
  expect(await screen.findByText("the run page")).toBeInTheDocument();
});

test("a study without complete trials says so, and lists no importances", async () => {
  const api = await fakeApi;
  api.on("GET", STUDY, () => ({ ...ADAPTIVE, state: "ended", reason: "the sweep ended stopped", trials: [aStudyTrial(0, "failed", null, 0.1, "sgd")], best_trial: null, importances: {} }));
  await show({ metric: "loss", optimization: "minimize" }, { ...TPE, status: "stopped" });
  const history = await screen.findByRole("region", { name: "Optimisation history" });
  expect(history).toHaveAttribute("data-points", "0");
  expect(history.querySelectorAll('[data-state="failed"]')).toHaveLength(1);
  expect(document.querySelector(".study-head")).toHaveTextContent("tpe search · ended: the sweep ended stopped · 1 / 6 trials · minimize loss");
  expect(screen.getByRole("region", { name: "Parallel coordinates" })).toHaveTextContent("No trial has completed yet.");
  expect(screen.getByRole("region", { name: "Param importances" })).toHaveAttribute("data-params", "0");
});

test("a grid sweep has no study (404): no study sections, the params plot as before", async () => {
  await show({ metric: "loss", optimization: "minimize" });
  await screen.findByRole("table", { name: "Trials" });
  await waitFor(async () => expect((await fakeApi).sent("GET", STUDY)).toHaveLength(1));
  expect(screen.getByRole("heading", { name: "Params against loss" })).toBeInTheDocument();
  expect(screen.getByRole("combobox", { name: "Plot" })).toBeInTheDocument();
  for (const name of ["Optimisation history", "Parallel coordinates", "Param importances"]) {
    expect(screen.queryByRole("region", { name })).not.toBeInTheDocument();
  }
  expect(screen.queryByRole("alert")).not.toBeInTheDocument();
});

test("a study that cannot be read is said, and the trials are shown as for any sweep", async () => {
  const api = await fakeApi;
  api.on("GET", STUDY, () => fail(503, { code: "unavailable", message: "the optimization service does not answer" }));
  await show({ metric: "loss", optimization: "minimize" }, TPE);
  expect(await screen.findByRole("alert")).toHaveTextContent("The study could not be read: the optimization service does not answer");
  expect(screen.getByRole("table", { name: "Trials" })).toBeInTheDocument();
  expect(screen.queryByRole("region", { name: "Optimisation history" })).not.toBeInTheDocument();
});
