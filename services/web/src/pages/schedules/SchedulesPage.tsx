/** The schedules of a project: when each fires next, what it fired, its state and its actions. */
import { EmptyState, ErrorView, Loading } from "../../components/States";
import { useProject } from "../../lib/params";
import { RunLink } from "../runs/RunBits";
import { Backfill } from "./Backfill";
import { type ScheduleInfo, timetable } from "./describe";
import { useSchedules } from "./queries";
import { ScheduleActions } from "./ScheduleActions";
import { Fired, NextFire, ScheduleStateBadge } from "./ScheduleBits";
import "./schedules.css";

const EXAMPLE = `schedule: {kind: cron, cron: "0 2 * * *", timezone: Europe/Paris}`;

function ScheduleRow({ schedule }: { schedule: ScheduleInfo }) {
  return (
    <tr data-schedule={schedule.run_uuid}>
      <td>
        <RunLink uuid={schedule.run_uuid} name={schedule.name} />
      </td>
      <td className="mono">{timetable(schedule)}</td>
      <td>
        <NextFire at={schedule.next_fire_at} />
      </td>
      <td className="num">
        <Fired schedule={schedule} />
      </td>
      <td>
        <ScheduleStateBadge schedule={schedule} />
      </td>
      <td>
        <ScheduleActions schedule={schedule} />
        <details className="backfill-panel">
          <summary>Backfill</summary>
          <Backfill schedule={schedule} />
        </details>
      </td>
    </tr>
  );
}

export default function SchedulesPage() {
  const { owner, project } = useProject();
  const schedules = useSchedules(owner, project);
  const rows = schedules.data?.schedules ?? [];
  return (
    <section aria-labelledby="schedules-title">
      <h1 id="schedules-title">Schedules</h1>
      {schedules.isPending ? (
        <Loading what="Loading schedules" />
      ) : schedules.isError ? (
        <ErrorView error={schedules.error} retry={() => void schedules.refetch()} />
      ) : rows.length === 0 ? (
        <EmptyState title="No schedules yet" command={`axonal run -f polyaxonfile.yaml --project ${owner}/${project}`}>
          A polyaxonfile with a <code>schedule</code> section (<code>{EXAMPLE}</code>) becomes a schedule that creates one run per slot.
        </EmptyState>
      ) : (
        <table className="grid schedules" aria-label="Schedules">
          <thead>
            <tr>
              <th>Name</th>
              <th>When</th>
              <th>Next fire</th>
              <th className="num">Runs fired</th>
              <th>State</th>
              <th>
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((schedule) => (
              <ScheduleRow key={schedule.run_uuid} schedule={schedule} />
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
