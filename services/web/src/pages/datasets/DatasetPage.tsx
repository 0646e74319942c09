/** A dataset: its items (now, or as of a time) and its runs, two or more of which are
 * compared on the comparison page. */
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Link, useParams } from "react-router";
import { api, unwrap } from "../../api/client";
import { EmptyState, ErrorView, Loading } from "../../components/States";
import { formatTime } from "../../lib/format";
import { useProject } from "../../lib/params";
import { comparePath, short } from "./shared";

function Items({ name }: { name: string }) {
  const { owner, project } = useProject();
  const [asOf, setAsOf] = useState("");
  const version = asOf ? new Date(asOf).toISOString() : undefined;
  const items = useQuery({
    queryKey: ["dataset-items", owner, project, name, version],
    queryFn: () =>
      unwrap(api.GET("/api/v1/{owner}/{project}/datasets/{name}/items", { params: { path: { owner, project, name }, query: { limit: 100, version } } })),
  });
  return (
    <section aria-labelledby="items-title">
      <h2 id="items-title">Items</h2>
      <label>
        As of <input type="datetime-local" value={asOf} onChange={(e) => setAsOf(e.target.value)} aria-label="Items as of" />
      </label>
      {items.isPending ? (
        <Loading what="Loading items" />
      ) : items.isError ? (
        <ErrorView error={items.error} retry={() => void items.refetch()} />
      ) : (
        <table className="grid" aria-label="Items">
          <thead>
            <tr>
              <th>Id</th>
              <th>Status</th>
              <th>Input</th>
              <th>Expected output</th>
              <th>Version</th>
            </tr>
          </thead>
          <tbody>
            {items.data.data.map((item) => (
              <tr key={item.id} data-item-id={item.id}>
                <td>{item.id}</td>
                <td>{item.status}</td>
                <td>{short(item.input)}</td>
                <td>{short(item.expected_output)}</td>
                <td>{formatTime(item.version)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

function Runs({ name }: { name: string }) {
  const { owner, project, base } = useProject();
  const [chosen, setChosen] = useState<string[]>([]);
  const runs = useQuery({
    queryKey: ["dataset-runs", owner, project, name],
    queryFn: () => unwrap(api.GET("/api/v1/{owner}/{project}/datasets/{name}/runs", { params: { path: { owner, project, name }, query: { limit: 100 } } })),
  });
  const toggle = (run: string) => setChosen((now) => (now.includes(run) ? now.filter((r) => r !== run) : [...now, run]));
  if (runs.isPending) return <Loading what="Loading runs" />;
  if (runs.isError) return <ErrorView error={runs.error} retry={() => void runs.refetch()} />;
  return (
    <section aria-labelledby="runs-title">
      <h2 id="runs-title">Runs</h2>
      {runs.data.data.length === 0 ? (
        <EmptyState title="No runs yet">Run an experiment with the Langfuse SDK: `dataset.run_experiment(...)`.</EmptyState>
      ) : (
        <>
          <table className="grid" aria-label="Runs">
            <thead>
              <tr>
                <th>Compare</th>
                <th>Name</th>
                <th>Description</th>
                <th>Created</th>
              </tr>
            </thead>
            <tbody>
              {runs.data.data.map((run) => (
                <tr key={run.id} data-run-name={run.name}>
                  <td>
                    <input type="checkbox" aria-label={`Compare ${run.name}`} checked={chosen.includes(run.id)} onChange={() => toggle(run.id)} />
                  </td>
                  <td>{run.name}</td>
                  <td>{run.description}</td>
                  <td>{formatTime(run.created_at)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {chosen.length >= 2 ? <Link to={comparePath(base, name, chosen)}>Compare {chosen.length} runs</Link> : <p>Choose two or more runs to compare.</p>}
        </>
      )}
    </section>
  );
}

export default function DatasetPage() {
  const name = useParams()["*"] ?? "";
  return (
    <section aria-labelledby="dataset-title">
      <h1 id="dataset-title">{name}</h1>
      <Items name={name} />
      <Runs name={name} />
    </section>
  );
}
