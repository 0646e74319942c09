/** The generations that used one version of a prompt, newest first, each a link to its trace. */
import { useQuery } from "@tanstack/react-query";
import { Link } from "react-router";
import { api, unwrap } from "../../api/client";
import { EmptyState, ErrorView, Loading } from "../../components/States";
import { formatCost, formatDuration, formatNumber, formatTime } from "../../lib/format";
import { useProject } from "../../lib/params";

export function Generations({ name, version }: { name: string; version: number }) {
  const { owner, project, base } = useProject();
  const found = useQuery({
    queryKey: ["prompt-generations", owner, project, name, version],
    queryFn: () =>
      unwrap(
        api.GET("/api/v1/{owner}/{project}/prompt-generations/{name}", {
          params: { path: { owner, project, name }, query: { version, limit: 50 } },
        }),
      ),
  });
  if (found.isPending) return <Loading what="Loading generations" />;
  if (found.isError) return <ErrorView error={found.error} retry={() => void found.refetch()} />;
  if (found.data.data.length === 0) {
    return <EmptyState title={`No generations used v${version} yet`}>Link a generation to the prompt (the SDKs' prompt argument).</EmptyState>;
  }
  return (
    <table className="grid" aria-label={`Generations of v${version}`}>
      <thead>
        <tr>
          <th>Generation</th>
          <th>Model</th>
          <th>Started</th>
          <th>Latency</th>
          <th>Cost</th>
          <th>Scores</th>
        </tr>
      </thead>
      <tbody>
        {found.data.data.map((g) => (
          <tr key={g.id} data-generation-id={g.id}>
            <td>
              <Link to={`${base}/traces/${encodeURIComponent(g.trace_id)}`}>{g.name || g.id}</Link>
            </td>
            <td>{g.model}</td>
            <td>{formatTime(g.start_time)}</td>
            <td>{formatDuration(g.latency)}</td>
            <td>{formatCost(g.total_cost)}</td>
            <td>
              {(g.scores ?? []).map((s) => (
                <span key={s.name} className="chip" data-score-name={s.name}>
                  {s.name} {s.value != null ? formatNumber(s.value) : s.string_value}
                </span>
              ))}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
