/** The schedules page and a schedule run's panel against `fakeApi`; their wording helpers. */
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { components } from "../../api/schema";
import { formatRelative } from "../../lib/format";
import { aRun, UUID_A, UUID_B } from "../../test/fixtures";
import { renderProjectRoutes } from "../../test/render";
import { runsRoutes } from "../runs/routes";
import { stateOf, timetable } from "./describe";
import { schedulesRoutes } from "./routes";

const fakeApi = vi.hoisted(async () => (await import("../../test/fakeApi")).installFakeApi());

type ScheduleInfo = components["schemas"]["ScheduleInfo"];
const V1 = "/api/v1/acme/demo";
const CRON = "c".repeat(32);
const soon = () => new Date(Date.now() + 30 * 60_000).toISOString();

function aSchedule(fields: Partial<ScheduleInfo> = {}): ScheduleInfo {
  return {
    run_uuid: UUID_A,
    project: "acme/demo",
    name: "every-2s",
    status: "running",
    kind: "interval",
    spec: { kind: "interval", frequency: 2, maxRuns: 3 },
    next_fire_at: soon(),
    fired: 1,
    paused: false,
    waiting_on: null,
    last_run_uuid: UUID_B,
    ...fields,
  };
}

const nightly = () => aSchedule({ run_uuid: CRON, name: "nightly", kind: "cron", spec: { kind: "cron", cron: "0 2 * * *", timezone: "Europe/Paris" }, fired: 0 });

afterEach(async () => (await fakeApi).reset());

test("a schedule's timetable, state and distance to now read as words", () => {
  expect(timetable(aSchedule())).toBe("every 2 s");
  expect(timetable(nightly())).toBe("cron 0 2 * * * (Europe/Paris)");
  expect(timetable({ kind: "cron", spec: { cron: "* * * * *" } })).toBe("cron * * * * * (UTC)");
  expect(stateOf(aSchedule())).toEqual({ kind: "active" });
  expect(stateOf(aSchedule({ paused: true }))).toEqual({ kind: "paused" });
  expect(stateOf(aSchedule({ waiting_on: UUID_B }))).toEqual({ kind: "waiting", on: UUID_B });
  expect(stateOf(aSchedule({ next_fire_at: null }))).toEqual({ kind: "finished" });
  expect(stateOf(aSchedule({ status: "succeeded" }))).toEqual({ kind: "finished" });
  expect(stateOf(aSchedule({ status: "stopped", paused: true }))).toEqual({ kind: "stopped" });
  const now = Date.parse("2026-12-01T10:00:00Z");
  expect(formatRelative("2026-12-01T10:00:05Z", now)).toBe("in 5 s");
  expect(formatRelative("2026-12-01T09:57:00Z", now)).toBe("3 min ago");
  expect(formatRelative("2026-12-01T12:00:00Z", now)).toBe("in 2 h");
});

test("the schedules are listed with their timetable, next fire, runs fired and state", async () => {
  const api = await fakeApi;
  const held = aSchedule({ run_uuid: "d".repeat(32), name: "chain", waiting_on: UUID_B });
  api.on("GET", `${V1}/schedules`, () => ({ schedules: [aSchedule(), nightly(), held] }));
  renderProjectRoutes(schedulesRoutes, "/projects/acme/demo/schedules");
  const table = await screen.findByRole("table", { name: "Schedules" });
  const row = table.querySelector(`[data-schedule="${UUID_A}"]`) as HTMLElement;
  expect(within(row).getByRole("link", { name: "every-2s" })).toHaveAttribute("href", `/projects/acme/demo/runs/${UUID_A}`);
  expect(within(row).getByText("every 2 s")).toBeInTheDocument();
  expect(within(row).getByText(/^in (29|30) min$/)).toBeInTheDocument();
  expect(row.querySelector("[data-fired]")).toHaveTextContent("1 / 3");
  expect(row.querySelector("[data-state]")).toHaveAttribute("data-state", "active");
  const chain = table.querySelector(`[data-schedule="${"d".repeat(32)}"]`) as HTMLElement;
  expect(within(chain).getByText("waiting on run")).toBeInTheDocument();
  expect(within(chain).getByRole("link", { name: UUID_B.slice(0, 8) })).toHaveAttribute("href", `/projects/acme/demo/runs/${UUID_B}`);
  expect(within(table).getByText("cron 0 2 * * * (Europe/Paris)")).toBeInTheDocument();
});

test("a schedule is paused, resumed, backfilled and removed from its row", async () => {
  const api = await fakeApi;
  let paused = false;
  api.on("GET", `${V1}/schedules`, () => ({ schedules: [aSchedule({ paused })] }));
  api.on("POST", `${V1}/schedules/:uuid/:verb`, (_, [, , verb]) => {
    paused = verb === "pause";
    return aSchedule({ paused });
  });
  api.on("POST", `${V1}/schedules/:uuid/backfill`, () => ({ run_uuids: ["1", "2", "3"], created: 2 }));
  api.on("POST", `${V1}/runs/:uuid/stop`, () => ({ accepted: true, action: "stop", run_uuid: UUID_A }));
  renderProjectRoutes(schedulesRoutes, "/projects/acme/demo/schedules");
  const table = await screen.findByRole("table", { name: "Schedules" });

  await userEvent.click(within(table).getByRole("button", { name: "Pause" }));
  expect(await within(table).findByRole("button", { name: "Resume" })).toBeInTheDocument();
  expect(table.querySelector("[data-state]")).toHaveAttribute("data-state", "paused");
  await userEvent.click(within(table).getByRole("button", { name: "Resume" }));
  expect(await within(table).findByRole("button", { name: "Pause" })).toBeInTheDocument();
  expect(api.sent("POST", `${V1}/schedules/${UUID_A}/pause`)).toHaveLength(1);
  expect(api.sent("POST", `${V1}/schedules/${UUID_A}/resume`)).toHaveLength(1);

  await userEvent.click(within(table).getByText("Backfill", { selector: "summary" }));
  const form = within(table).getByRole("form", { name: "Backfill every-2s" });
  await userEvent.type(within(form).getByLabelText("From"), "2026-11-01T00:00");
  await userEvent.type(within(form).getByLabelText("To"), "2026-11-01T00:04");
  await userEvent.click(within(form).getByRole("button", { name: "Backfill" }));
  expect(await within(form).findByText("Created 2 runs (3 slots in the window).")).toBeInTheDocument();
  const [sent] = api.sent("POST", `${V1}/schedules/${UUID_A}/backfill`);
  expect(sent?.body).toEqual({ start: new Date("2026-11-01T00:00").toISOString(), end: new Date("2026-11-01T00:04").toISOString() });

  await userEvent.click(within(table).getByRole("button", { name: "Remove" }));
  const dialog = screen.getByRole("dialog", { name: "Remove" });
  expect(dialog).toHaveTextContent("the runs it fired stay");
  await userEvent.click(within(dialog).getByRole("button", { name: "Remove" }));
  await waitFor(() => expect(api.sent("POST", `${V1}/runs/${UUID_A}/stop`)).toHaveLength(1));
});

test("no schedules yet says how to make one", async () => {
  const api = await fakeApi;
  api.on("GET", `${V1}/schedules`, () => ({ schedules: [] }));
  renderProjectRoutes(schedulesRoutes, "/projects/acme/demo/schedules");
  expect(await screen.findByText("No schedules yet")).toBeInTheDocument();
});

test("a schedule run's overview shows its schedule, pause, and the runs it fired", async () => {
  const api = await fakeApi;
  api.on("GET", `${V1}/runs/${UUID_A}`, () => aRun({ kind: "schedule", status: "running", name: "every-2s", children: 1 }));
  api.on("GET", `${V1}/runs/${UUID_A}/statuses`, () => ({ run_uuid: UUID_A, changes: [] }) satisfies components["schemas"]["StatusHistory"]);
  api.on("GET", `${V1}/runs`, (request) =>
    request.query.get("pipeline") === UUID_A ? { runs: [aRun({ uuid: UUID_B, name: "every-2s-1", pipeline_uuid: UUID_A })], total: 1 } : { runs: [], total: 0 },
  );
  api.on("GET", `${V1}/schedules`, () => ({ schedules: [aSchedule(), nightly()] }));
  api.on("POST", `${V1}/schedules/:uuid/pause`, () => aSchedule({ paused: true }));
  renderProjectRoutes(runsRoutes, `/projects/acme/demo/runs/${UUID_A}`);
  const panel = await screen.findByRole("region", { name: "Schedule" });
  expect(await within(panel).findByText("every 2 s")).toBeInTheDocument();
  expect(panel.querySelector("[data-fired]")).toHaveTextContent("1 / 3");
  const fired = await within(panel).findByRole("table", { name: "Fired runs" });
  expect(within(fired).getByRole("link", { name: "every-2s-1" })).toHaveAttribute("href", `/projects/acme/demo/runs/${UUID_B}`);
  expect(within(panel).queryByRole("button", { name: "Remove" })).not.toBeInTheDocument();
  await userEvent.click(within(panel).getByRole("button", { name: "Pause" }));
  await waitFor(() => expect(api.sent("POST", `${V1}/schedules/${UUID_A}/pause`)).toHaveLength(1));
});
