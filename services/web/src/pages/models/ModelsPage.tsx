/** The project's registered models: each with its latest version and who holds each alias. */
import { Link } from "react-router";
import { EmptyState, ErrorView, Loading } from "../../components/States";
import { formatTime } from "../../lib/format";
import { useProject } from "../../lib/params";
import { Aliases } from "./Aliases";
import { useModels } from "./queries";

export default function ModelsPage() {
  const { owner, project, base } = useProject();
  const models = useModels(owner, project);
  if (models.isPending) return <Loading what="Loading models" />;
  if (models.isError) return <ErrorView error={models.error} retry={() => void models.refetch()} />;
  const rows = models.data.models;
  return (
    <section>
      <h1>Models</h1>
      {rows.length === 0 ? (
        <EmptyState title="No registered models yet" command={'tracking.log_model("model.pkl", register_as="churn")'}>
          A run that logs a model with register_as makes a new version of that registered model.
        </EmptyState>
      ) : (
        <table className="grid" aria-label="Models">
          <thead>
            <tr>
              <th>Name</th>
              <th>Latest</th>
              <th>Aliases</th>
              <th>Protected</th>
              <th>Created</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((model) => (
              <tr key={model.name} data-model={model.name}>
                <td>
                  <Link to={`${base}/models/${encodeURIComponent(model.name)}`}>{model.name}</Link>
                </td>
                <td>{model.latest_version ? `v${model.latest_version}` : "–"}</td>
                <td>
                  <Aliases held={model.aliases} />
                </td>
                <td>{model.protected_aliases.join(", ") || "–"}</td>
                <td>{formatTime(model.created_at)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
