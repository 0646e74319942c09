/** Runs of a dataset side by side: per item, each run's output, scores, latency and cost,
 * then each run's means. */
import { useQuery } from "@tanstack/react-query";
import { useSearchParams } from "react-router";
import { api, unwrap } from "../../api/client";
import { EmptyState, ErrorView, Loading } from "../../components/States";
import { formatCost, formatDuration, formatNumber } from "../../lib/format";
import { useProject } from "../../lib/params";
import { type ComparisonCell, short } from "./shared";

/** A run's mean: latency as a duration, cost in dollars, a score as a number. */
function meanText(name: string, value: number): string {
  if (name === "latency") return `latency ${formatDuration(value)}`;
  if (name === "total_cost") return `cost ${formatCost(value)}`;
  return `${name} ${formatNumber(value)}`;
}

function Cell({ cell }: { cell: ComparisonCell | null }) {
  if (!cell) return <td className="cell-missing">not run</td>;
  return (
    <td data-trace-id={cell.trace_id}>
      <div className="cell-output">{short(cell.output, 200)}</div>
      <ul className="cell-scores" aria-label="Scores">
        {Object.entries(cell.scores ?? {}).map(([name, value]) => (
          <li key={name}>
            {name} {formatNumber(value ?? null)}
          </li>
        ))}
      </ul>
      <div className="cell-figures">
        {formatDuration(cell.latency)} · {formatCost(cell.total_cost)}
        {cell.level === "ERROR" ? " · error" : ""}
      </div>
    </td>
  );
}

export default function ComparePage() {
  const { owner, project } = useProject();
  const [params] = useSearchParams();
  const runs = params.getAll("run");
  const dataset = params.get("dataset") ?? undefined;
  const comparison = useQuery({
    queryKey: ["experiments-compare", owner, project, dataset, runs],
    enabled: runs.length >= 2,
    queryFn: () =>
      unwrap(api.GET("/api/v1/{owner}/{project}/experiments/compare", { params: { path: { owner, project }, query: { run: runs, dataset } } })),
  });
  if (runs.length < 2) return <EmptyState title="Choose two or more runs">Pick them on a dataset's page.</EmptyState>;
  if (comparison.isPending) return <Loading what="Comparing runs" />;
  if (comparison.isError) return <ErrorView error={comparison.error} retry={() => void comparison.refetch()} />;
  const found = comparison.data;
  return (
    <section aria-labelledby="compare-title">
      <h1 id="compare-title">{dataset ? `${dataset}: runs compared` : "Runs compared"}</h1>
      <table className="grid compare-grid" aria-label="Runs compared">
        <thead>
          <tr>
            <th>Item</th>
            <th>Input</th>
            <th>Expected</th>
            {found.runs.map((run) => (
              <th key={run.id}>{run.name}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {found.rows.map((row) => (
            <tr key={row.dataset_item_id} data-item-id={row.dataset_item_id}>
              <td>{row.dataset_item_id}</td>
              <td>{short(row.input)}</td>
              <td>{short(row.expected_output)}</td>
              {row.cells.map((cell, index) => (
                <Cell key={found.runs[index].id} cell={cell} />
              ))}
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr aria-label="Means">
            <th colSpan={3}>Mean</th>
            {(found.averages ?? []).map((means, index) => (
              <td key={found.runs[index].id}>
                {Object.entries(means).map(([name, value]) => (
                  <div key={name}>{meanText(name, value)}</div>
                ))}
              </td>
            ))}
          </tr>
        </tfoot>
      </table>
    </section>
  );
}
