/** A run's status changes, oldest first, with the reason and message of each. */
import { ErrorView, Loading } from "../../components/States";
import { StatusBadge } from "../../components/StatusBadge";
import { formatTime } from "../../lib/format";
import { useStatuses } from "./useRun";

export function StatusTimeline({ uuid, live }: { uuid: string; live: boolean }) {
  const history = useStatuses(uuid, live);
  if (history.isPending) return <Loading what="Loading the statuses" />;
  if (history.isError) return <ErrorView error={history.error} retry={() => void history.refetch()} />;
  return (
    <ol className="timeline" aria-label="Status timeline">
      {history.data.changes.map((change, i) => (
        <li key={`${i}-${change.status}`} data-status={change.status}>
          <StatusBadge status={change.status} />
          <time dateTime={change.at}>{formatTime(change.at)}</time>
          {change.reason && <span className="reason">{change.reason}</span>}
          {change.message && <span className="muted">{change.message}</span>}
        </li>
      ))}
    </ol>
  );
}
