/** The lineage of a model version: where it came from, edge by edge (a dataset version read
 * by a run, a run that wrote a dataset, the run whose artifact became the version), and the
 * runs' params and metrics. */
import { Link } from "react-router";
import type { components } from "../../api/schema";
import { ErrorView, Loading } from "../../components/States";
import { formatValue } from "../../lib/format";
import { useProject } from "../../lib/params";
import { useLineage } from "./queries";

type LineageNode = components["schemas"]["LineageNode"];

const RELATIONS: Record<string, string> = { read: "read by", wrote: "wrote", registered: "registered as" };

function Node({ node }: { node: LineageNode | undefined }) {
  const { base } = useProject();
  if (!node) return <span className="muted">?</span>;
  if (node.kind === "run") {
    const name = node.attributes?.name as string | undefined;
    return (
      <Link to={`${base}/runs/${node.label}`} data-node={node.id}>
        {name || node.label.slice(0, 8)}
      </Link>
    );
  }
  return (
    <span data-node={node.id}>
      <span className="muted">{node.kind === "dataset" ? "dataset " : "model "}</span>
      <code>{node.label}</code>
    </span>
  );
}

function Values({ values }: { values: Record<string, unknown> | undefined }) {
  const entries = Object.entries(values ?? {});
  if (entries.length === 0) return <span className="muted">–</span>;
  return (
    <span>
      {entries.map(([key, value]) => (
        <code key={key} className="chip">
          {key} = {formatValue(value)}
        </code>
      ))}
    </span>
  );
}

export function LineageView({ model, version }: { model: string; version: number }) {
  const { owner, project } = useProject();
  const lineage = useLineage(owner, project, model, version);
  if (lineage.isPending) return <Loading what="Loading the lineage" />;
  if (lineage.isError) return <ErrorView error={lineage.error} retry={() => void lineage.refetch()} />;
  const byId = new Map(lineage.data.nodes.map((node) => [node.id, node]));
  const runs = lineage.data.nodes.filter((node) => node.kind === "run");
  return (
    <section className="panel" aria-label="Lineage">
      <h2>Lineage of v{version}</h2>
      <table className="grid" aria-label="Lineage edges">
        <thead>
          <tr>
            <th>From</th>
            <th />
            <th>To</th>
          </tr>
        </thead>
        <tbody>
          {lineage.data.edges.map((edge) => (
            <tr key={`${edge.source} ${edge.relation} ${edge.target}`} data-relation={edge.relation}>
              <td>
                <Node node={byId.get(edge.source)} />
              </td>
              <td className="muted">{RELATIONS[edge.relation] ?? edge.relation}</td>
              <td>
                <Node node={byId.get(edge.target)} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <table className="grid" aria-label="Runs">
        <thead>
          <tr>
            <th>Run</th>
            <th>Status</th>
            <th>Params</th>
            <th>Metrics</th>
          </tr>
        </thead>
        <tbody>
          {runs.map((run) => (
            <tr key={run.id} data-run={run.label}>
              <td>
                <Node node={run} />
              </td>
              <td>{(run.attributes?.status as string | undefined) ?? "–"}</td>
              <td>
                <Values values={run.attributes?.params as Record<string, unknown> | undefined} />
              </td>
              <td>
                <Values values={run.attributes?.metrics as Record<string, unknown> | undefined} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
