/** The project's datasets: each with its description and schemas, a link to its page. */
import { useQuery } from "@tanstack/react-query";
import { Link } from "react-router";
import { api, unwrap } from "../../api/client";
import { EmptyState, ErrorView, Loading } from "../../components/States";
import { formatTime } from "../../lib/format";
import { useProject } from "../../lib/params";
import { type Dataset, datasetPath } from "./shared";

function schemas(dataset: Dataset): string {
  const found = [dataset.input_schema ? "input" : "", dataset.expected_output_schema ? "expected output" : ""];
  return found.filter(Boolean).join(", ");
}

export default function DatasetsPage() {
  const { owner, project, base } = useProject();
  const datasets = useQuery({
    queryKey: ["datasets", owner, project],
    queryFn: () => unwrap(api.GET("/api/v1/{owner}/{project}/datasets", { params: { path: { owner, project }, query: { limit: 100 } } })),
  });
  return (
    <section aria-labelledby="datasets-title">
      <h1 id="datasets-title">Datasets</h1>
      {datasets.isPending ? (
        <Loading what="Loading datasets" />
      ) : datasets.isError ? (
        <ErrorView error={datasets.error} retry={() => void datasets.refetch()} />
      ) : datasets.data.data.length === 0 ? (
        <EmptyState title="No datasets yet">Create one with the Langfuse SDK: `langfuse.create_dataset(name=...)`.</EmptyState>
      ) : (
        <table className="grid" aria-label="Datasets">
          <thead>
            <tr>
              <th>Name</th>
              <th>Description</th>
              <th>Schemas</th>
              <th>Created</th>
            </tr>
          </thead>
          <tbody>
            {datasets.data.data.map((d) => (
              <tr key={d.id} data-dataset-name={d.name}>
                <td>
                  <Link to={`${base}/datasets/${datasetPath(d.name)}`}>{d.name}</Link>
                </td>
                <td>{d.description}</td>
                <td>{schemas(d)}</td>
                <td>{formatTime(d.created_at)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
