/** On a schedule run's page: when it fires next, what it fired, its state and pause/resume,
 * then the runs it fired (its children). */
import type { ReactNode } from "react";
import { EmptyState, ErrorView, Loading } from "../../components/States";
import { useProject } from "../../lib/params";
import { useChildren } from "../runs/children";
import { RunsTable } from "../runs/RunsTable";
import type { RunInfo } from "../runs/statuses";
import { Backfill } from "./Backfill";
import { timetable } from "./describe";
import { useSchedules } from "./queries";
import { ScheduleActions } from "./ScheduleActions";
import { Fired, NextFire, ScheduleStateBadge } from "./ScheduleBits";
import "./schedules.css";

function ScheduleFacts({ run }: { run: RunInfo }) {
  const { owner, project } = useProject();
  const schedules = useSchedules(owner, project);
  if (schedules.isPending) return <Loading what="Loading the schedule" />;
  if (schedules.isError) return <ErrorView error={schedules.error} retry={() => void schedules.refetch()} />;
  const schedule = schedules.data.schedules.find((s) => s.run_uuid === run.uuid);
  if (!schedule) return <p className="muted">The scheduler has not started this schedule's clock yet.</p>;
  const rows: [string, ReactNode][] = [
    ["When", <span className="mono">{timetable(schedule)}</span>],
    ["Next fire", <NextFire at={schedule.next_fire_at} />],
    ["Runs fired", <Fired schedule={schedule} />],
    ["State", <ScheduleStateBadge schedule={schedule} />],
  ];
  return (
    <div className="schedule-facts" data-schedule={schedule.run_uuid}>
      <dl className="facts">
        {rows.map(([term, value]) => (
          <div key={term}>
            <dt>{term}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      <ScheduleActions schedule={schedule} removable={false} />
      <details className="backfill-panel">
        <summary>Backfill</summary>
        <Backfill schedule={schedule} />
      </details>
    </div>
  );
}

function FiredRuns({ run }: { run: RunInfo }) {
  const { owner, project } = useProject();
  const kids = useChildren(owner, project, run.uuid, run.status);
  if (kids.isPending) return <Loading what="Loading the runs it fired" />;
  if (kids.isError) return <ErrorView error={kids.error} retry={() => void kids.refetch()} />;
  if (kids.data.runs.length === 0) return <EmptyState title="No run fired yet" />;
  return <RunsTable runs={kids.data.runs} label="Fired runs" />;
}

export function SchedulePanel({ run }: { run: RunInfo }) {
  return (
    <section className="panel schedule" aria-labelledby="panel-schedule">
      <h2 id="panel-schedule">Schedule</h2>
      <ScheduleFacts run={run} />
      <h3>Fired runs</h3>
      <FiredRuns run={run} />
    </section>
  );
}
