/** Small pieces every runs page shows the same way: a run's link, tags and duration. */
import { Link } from "react-router";
import { durationBetween, formatDuration } from "../../lib/format";
import { useProject } from "../../lib/params";
import type { RunInfo } from "./statuses";

export const shortUuid = (uuid: string): string => uuid.replace(/-/g, "").slice(0, 8);

export function RunLink({ uuid, name }: { uuid: string; name?: string | null }) {
  const { base } = useProject();
  return (
    <Link to={`${base}/runs/${uuid}`} data-run={uuid}>
      {name || shortUuid(uuid)}
    </Link>
  );
}

export function Tags({ tags }: { tags: string[] }) {
  if (tags.length === 0) return <span className="muted">–</span>;
  return (
    <ul className="tags" aria-label="Tags">
      {tags.map((tag) => (
        <li key={tag} className="tag">
          {tag}
        </li>
      ))}
    </ul>
  );
}

export function RunDuration({ run }: { run: Pick<RunInfo, "started_at" | "finished_at"> }) {
  return <span className="num">{formatDuration(durationBetween(run.started_at, run.finished_at))}</span>;
}
