import { screen, waitFor } from "@testing-library/react";
import { Route, Routes } from "react-router";
import { drawn } from "../../test/fakeUPlot";
import { fail } from "../../test/fakeApi";
import { aRun, aSeries, type RunInfo, type SeriesList, UUID_A } from "../../test/fixtures";
import { renderPage } from "../../test/render";
import MetricsTab from "./MetricsTab";

vi.mock("uplot", async () => ({ default: (await import("../../test/fakeUPlot")).FakeUPlot }));

const RUN = `/api/v1/acme/demo/runs/${UUID_A}`;
const fakeApi = vi.hoisted(async () => (await import("../../test/fakeApi")).installFakeApi());
afterEach(async () => (await fakeApi).reset());

function show() {
  return renderPage(
    <Routes>
      <Route path="/projects/:owner/:project/runs/:uuid/metrics" element={<MetricsTab />} />
    </Routes>,
    `/projects/acme/demo/runs/${UUID_A}/metrics`,
  );
}

test("one chart per metric, downsampled by the api, non-finite points left out and counted", async () => {
  const run: RunInfo = aRun();
  const series: SeriesList = { series: [aSeries("loss", 40, { total: 100_000 }, [3, 7]), aSeries("acc", 10)] };
  const api = await fakeApi;
  api.on("GET", RUN, () => run).on("GET", `${RUN}/metrics`, () => series);
  show();
  const loss = await screen.findByRole("img", { name: "metric loss" });
  expect(loss).toHaveAttribute("data-points", "38");
  expect(screen.getByRole("img", { name: "metric acc" })).toHaveAttribute("data-points", "10");
  expect(screen.getByText(/2 not drawn \(NaN or infinite\)/)).toBeInTheDocument();
  expect(screen.getByText(/100,000 points/)).toBeInTheDocument();
  const read = api.sent("GET", `${RUN}/metrics`)[0];
  expect(read?.query.get("points")).toBe("1000");
});

test("a zoom reads its steps again at a finer resolution, and the reset reads all again", async () => {
  const api = await fakeApi;
  api.on("GET", RUN, () => aRun()).on("GET", `${RUN}/metrics`, () => ({ series: [aSeries("loss", 40)] }) satisfies SeriesList);
  show();
  await waitFor(() => expect(drawn).toHaveLength(1));
  expect(drawn[0].data[1]).toHaveLength(40);
  drawn[0].drag(10, 20); // x is the step here
  await waitFor(() => expect(api.requests.some((r) => r.query.get("first_step") === "10")).toBe(true));
  const zoomed = api.requests.find((r) => r.query.get("first_step") === "10");
  expect(zoomed?.query.get("last_step")).toBe("20");
  (await screen.findByRole("button", { name: "Reset zoom" })).click();
  await waitFor(() => expect(screen.queryByRole("button", { name: "Reset zoom" })).not.toBeInTheDocument());
});

test("a run without metrics says how to log them", async () => {
  const api = await fakeApi;
  api.on("GET", RUN, () => aRun()).on("GET", `${RUN}/metrics`, () => ({ series: [] }) satisfies SeriesList);
  show();
  expect(await screen.findByText("No metrics yet")).toBeInTheDocument();
  expect(screen.getByText(/log_metrics\(step=step, loss=loss\)/)).toBeInTheDocument();
});

test("an api error is shown in words", async () => {
  const api = await fakeApi;
  api.on("GET", RUN, () => aRun()).on("GET", `${RUN}/metrics`, () => fail(503, { code: "unavailable", message: "tracking is down" }));
  show();
  expect(await screen.findByRole("alert")).toHaveTextContent("tracking is down");
});
