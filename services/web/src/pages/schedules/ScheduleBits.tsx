/** A schedule's facts as the schedules page and a schedule run's page both show them. */
import { formatRelative, formatTime } from "../../lib/format";
import { useNow } from "../../lib/now";
import { RunLink } from "../runs/RunBits";
import { maxRuns, type ScheduleInfo, stateOf } from "./describe";

/** The next slot, relative ("in 5 s") then absolute; a dash once it fires no more. */
export function NextFire({ at }: { at: string | null | undefined }) {
  const now = useNow();
  if (!at) return <span className="muted">–</span>;
  return (
    <span className="next-fire">
      <time dateTime={at} title={formatTime(at)}>
        {formatRelative(at, now)}
      </time>{" "}
      <span className="muted small">{formatTime(at)}</span>
    </span>
  );
}

/** Runs fired so far, out of `maxRuns` when it has one. */
export function Fired({ schedule }: { schedule: Pick<ScheduleInfo, "fired" | "spec"> }) {
  const limit = maxRuns(schedule);
  return (
    <span data-fired={schedule.fired}>
      {schedule.fired}
      {limit != null && <span className="muted"> / {limit}</span>}
    </span>
  );
}

const TONES = { active: "live", paused: "warn", waiting: "wait", finished: "ok", stopped: "muted" } as const;

/** Active, paused, waiting on a run (linked), finished or stopped. */
export function ScheduleStateBadge({ schedule }: { schedule: ScheduleInfo }) {
  const state = stateOf(schedule);
  return (
    <span data-state={state.kind}>
      <span className={`badge tone-${TONES[state.kind]}`}>{state.kind === "waiting" ? "waiting on run" : state.kind}</span>
      {state.kind === "waiting" && (
        <>
          {" "}
          <RunLink uuid={state.on} />
        </>
      )}
    </span>
  );
}
