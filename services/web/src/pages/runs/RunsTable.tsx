/** A table of runs: name, uuid, kind, status, created, duration and tags, each row linking its run. */
import { StatusBadge } from "../../components/StatusBadge";
import { formatTime } from "../../lib/format";
import { RunDuration, RunLink, shortUuid, Tags } from "./RunBits";
import type { RunInfo } from "./statuses";

export function RunsTable({ runs, label = "Runs" }: { runs: RunInfo[]; label?: string }) {
  return (
    <table className="grid" aria-label={label}>
      <thead>
        <tr>
          <th>Name</th>
          <th>UUID</th>
          <th>Kind</th>
          <th>Status</th>
          <th>Created</th>
          <th className="num">Duration</th>
          <th>Tags</th>
        </tr>
      </thead>
      <tbody>
        {runs.map((run) => (
          <tr key={run.uuid} data-run-row={run.uuid}>
            <td>
              <RunLink uuid={run.uuid} name={run.name} />
            </td>
            <td>
              <code title={run.uuid}>{shortUuid(run.uuid)}</code>
            </td>
            <td>{run.kind}</td>
            <td>
              <StatusBadge status={run.status} />
            </td>
            <td>{formatTime(run.created_at)}</td>
            <td className="num">
              <RunDuration run={run} />
            </td>
            <td>
              <Tags tags={run.tags ?? []} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
