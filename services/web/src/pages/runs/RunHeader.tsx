/** Above a run's tabs: its name, status, uuid, kind, duration and actions. */
import { StatusBadge } from "../../components/StatusBadge";
import { RunDuration } from "./RunBits";
import { RunActions } from "./RunActions";
import type { RunInfo } from "./statuses";

export function RunHeader({ run }: { run: RunInfo }) {
  return (
    <header className="run-header" data-run={run.uuid} data-status={run.status}>
      <div className="run-title">
        <h1>{run.name || "Unnamed run"}</h1>
        <StatusBadge status={run.status} />
      </div>
      <dl className="run-facts">
        <dt>UUID</dt>
        <dd>
          <code>{run.uuid}</code>
        </dd>
        <dt>Kind</dt>
        <dd>{run.kind}</dd>
        <dt>Duration</dt>
        <dd>
          <RunDuration run={run} />
        </dd>
        {run.attempt > 1 && (
          <>
            <dt>Attempt</dt>
            <dd>{run.attempt}</dd>
          </>
        )}
      </dl>
      {run.message && <p className={run.status === "failed" ? "error" : "muted"}>{run.message}</p>}
      <RunActions run={run} />
    </header>
  );
}
