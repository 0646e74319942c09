/** Runs side by side: status and duration, params and outputs that differ, overlaid metrics. */
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useMemo, useState } from "react";
import { Link, useSearchParams } from "react-router";
import { api, unwrap } from "../../api/client";
import { EmptyState, ErrorView, Loading } from "../../components/States";
import { StatusBadge } from "../../components/StatusBadge";
import { durationBetween, formatDuration, formatTime } from "../../lib/format";
import { useProject } from "../../lib/params";
import { pollWhileLive } from "../../lib/runStatus";
import { CompareCharts } from "./CompareCharts";
import { RunPicker } from "./RunPicker";
import { formatRuns, parseRuns, runLabels } from "./selection";
import { ValuesTable } from "./ValuesTable";

export default function ComparePage() {
  const { owner, project, base } = useProject();
  const [search, setSearch] = useSearchParams();
  const chosen = parseRuns(search.get("runs"));
  const choose = (uuids: string[]) => setSearch(uuids.length ? { runs: formatRuns(uuids) } : {}, { replace: true });
  return (
    <section aria-label="Compare runs">
      <h1>Compare runs</h1>
      <RunPicker owner={owner} project={project} chosen={chosen} onAdd={(uuid) => choose([...chosen, uuid])} />
      {chosen.length === 0 ? (
        <EmptyState title="Pick runs to compare" command={`axonal run -f polyaxonfile.yaml --project ${owner}/${project}`}>
          Add two to ten runs above by name or uuid; the address keeps them, to share.
        </EmptyState>
      ) : (
        <Comparison owner={owner} project={project} base={base} chosen={chosen} onRemove={(uuid) => choose(chosen.filter((u) => u !== uuid))} />
      )}
    </section>
  );
}

interface ComparisonProps {
  owner: string;
  project: string;
  base: string;
  chosen: string[];
  onRemove: (uuid: string) => void;
}

function Comparison({ owner, project, base, chosen, onRemove }: ComparisonProps) {
  const [onlyDifferences, setOnlyDifferences] = useState(false);
  const compared = useQuery({
    queryKey: ["compare", owner, project, chosen],
    queryFn: () => unwrap(api.GET("/api/v1/{owner}/{project}/compare", { params: { path: { owner, project }, query: { run: chosen } } })),
    refetchInterval: (q) => pollWhileLive(q.state.data?.runs.map((r) => r.status) ?? []),
    placeholderData: keepPreviousData,
  });
  const runs = compared.data?.runs;
  const labels = useMemo(() => runLabels(runs ?? []), [runs]);
  if (compared.isPending) return <Loading what="Comparing runs" />;
  if (compared.isError) return <ErrorView error={compared.error} retry={() => void compared.refetch()} />;
  const { inputs, outputs, metrics } = compared.data;
  const differing = new Set(compared.data.differing);
  const shown = runs ?? [];
  return (
    <>
      {shown.length < 2 && <p className="muted">Add at least one more run to compare.</p>}
      <table className="grid" aria-label="Runs">
        <thead>
          <tr>
            <th scope="col">Run</th>
            <th scope="col">Status</th>
            <th scope="col">Created</th>
            <th scope="col">Duration</th>
            <th scope="col">
              <span className="sr-only">Remove</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {shown.map((r) => (
            <tr key={r.uuid} data-run={r.uuid}>
              <td>
                <Link to={`${base}/runs/${r.uuid}`}>{labels.get(r.uuid)}</Link>
              </td>
              <td>
                <StatusBadge status={r.status} />
              </td>
              <td>{formatTime(r.created_at)}</td>
              <td>{formatDuration(durationBetween(r.created_at, r.finished_at))}</td>
              <td>
                <button type="button" className="ghost" aria-label={`Remove ${labels.get(r.uuid)}`} onClick={() => onRemove(r.uuid)}>
                  ✕
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <label className="toolbar">
        <input type="checkbox" checked={onlyDifferences} onChange={(e) => setOnlyDifferences(e.target.checked)} />
        Only differences
      </label>
      <ValuesTable title="Params" kind="inputs" names={inputs} {...{ runs: shown, labels, differing, onlyDifferences }} />
      <ValuesTable title="Outputs" kind="outputs" names={outputs} {...{ runs: shown, labels, differing, onlyDifferences }} />
      <ValuesTable title="Last metric values" kind="metrics" names={metrics} {...{ runs: shown, labels, differing, onlyDifferences }} />
      <CompareCharts owner={owner} project={project} runs={shown} labels={labels} />
    </>
  );
}
