/** The project's prompts: each with its versions, labels and tags, a link to its page. */
import { useQuery } from "@tanstack/react-query";
import { Link } from "react-router";
import { api, unwrap } from "../../api/client";
import { EmptyState, ErrorView, Loading } from "../../components/States";
import { formatTime } from "../../lib/format";
import { useProject } from "../../lib/params";
import { Labels, type PromptMeta, promptPath } from "./shared";

function Row({ meta, base }: { meta: PromptMeta; base: string }) {
  return (
    <tr data-prompt-name={meta.name}>
      <td>
        <Link to={`${base}/prompts/${promptPath(meta.name)}`}>{meta.name}</Link>
      </td>
      <td>{meta.type}</td>
      <td>{meta.versions.length}</td>
      <td>
        <Labels labels={meta.labels} />
      </td>
      <td>{meta.tags.join(", ")}</td>
      <td>{formatTime(meta.last_updated_at)}</td>
    </tr>
  );
}

export default function PromptsPage() {
  const { owner, project, base } = useProject();
  const prompts = useQuery({
    queryKey: ["prompts", owner, project],
    queryFn: () => unwrap(api.GET("/api/v1/{owner}/{project}/prompts", { params: { path: { owner, project }, query: { limit: 100 } } })),
  });
  return (
    <section aria-labelledby="prompts-title">
      <h1 id="prompts-title">Prompts</h1>
      {prompts.isPending ? (
        <Loading what="Loading prompts" />
      ) : prompts.isError ? (
        <ErrorView error={prompts.error} retry={() => void prompts.refetch()} />
      ) : prompts.data.data.length === 0 ? (
        <EmptyState title="No prompts yet" command={`axonal prompts create greet --text "Hi {{name}}" -l production -p ${owner}/${project}`} />
      ) : (
        <table className="grid" aria-label="Prompts">
          <thead>
            <tr>
              <th>Name</th>
              <th>Type</th>
              <th>Versions</th>
              <th>Labels</th>
              <th>Tags</th>
              <th>Updated</th>
            </tr>
          </thead>
          <tbody>
            {prompts.data.data.map((meta) => (
              <Row key={meta.name} meta={meta} base={base} />
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
