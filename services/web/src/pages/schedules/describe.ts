/** What a schedule's record means for a person: its timetable and its state in words. */
import type { components } from "../../api/schema";
import { formatTime } from "../../lib/format";

export type ScheduleInfo = components["schemas"]["ScheduleInfo"];

/** When it fires: "cron 0 2 * * * (Europe/Paris)", "every 2 s", "at 01/12/2026, 10:00:00". */
export function timetable(schedule: Pick<ScheduleInfo, "kind" | "spec">): string {
  const spec = schedule.spec;
  if (schedule.kind === "cron") return `cron ${String(spec.cron ?? "?")} (${typeof spec.timezone === "string" ? spec.timezone : "UTC"})`;
  if (schedule.kind === "interval") return `every ${String(spec.frequency ?? "?")} s`;
  if (schedule.kind === "datetime") return `at ${formatTime(typeof spec.startAt === "string" ? spec.startAt : null)}`;
  return schedule.kind;
}

/** The runs it may fire at most (`maxRuns`), when it has a limit. */
export function maxRuns(schedule: Pick<ScheduleInfo, "spec">): number | null {
  const value = Number(schedule.spec.maxRuns);
  return schedule.spec.maxRuns != null && Number.isFinite(value) ? value : null;
}

export type ScheduleState =
  | { kind: "active" }
  | { kind: "paused" }
  | { kind: "waiting"; on: string }
  | { kind: "finished" }
  | { kind: "stopped" };

/** Removed (its run stopped), over (it fires no more), paused, held by a failed run, or firing. */
export function stateOf(schedule: Pick<ScheduleInfo, "status" | "paused" | "waiting_on" | "next_fire_at">): ScheduleState {
  if (schedule.status === "stopped" || schedule.status === "stopping") return { kind: "stopped" };
  if (["succeeded", "failed", "skipped", "upstream_failed"].includes(schedule.status)) return { kind: "finished" };
  if (schedule.paused) return { kind: "paused" };
  if (schedule.waiting_on) return { kind: "waiting", on: schedule.waiting_on };
  if (!schedule.next_fire_at) return { kind: "finished" };
  return { kind: "active" };
}

/** Whether pause or resume still mean anything: not once it is stopped or finished. */
export const canToggle = (state: ScheduleState): boolean => state.kind !== "stopped" && state.kind !== "finished";
