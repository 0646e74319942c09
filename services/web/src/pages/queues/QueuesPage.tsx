/** The project's annotation queues, each a link to its review screen. */
import { useQuery } from "@tanstack/react-query";
import { Link } from "react-router";
import { api, unwrap } from "../../api/client";
import { EmptyState, ErrorView, Loading } from "../../components/States";
import { formatTime } from "../../lib/format";
import { useProject } from "../../lib/params";

export default function QueuesPage() {
  const { owner, project, base } = useProject();
  const queues = useQuery({
    queryKey: ["annotation-queues", owner, project],
    queryFn: () => unwrap(api.GET("/api/v1/{owner}/{project}/annotation-queues", { params: { path: { owner, project }, query: { limit: 100 } } })),
  });
  return (
    <section aria-labelledby="queues-title">
      <h1 id="queues-title">Annotation queues</h1>
      {queues.isPending ? (
        <Loading what="Loading annotation queues" />
      ) : queues.isError ? (
        <ErrorView error={queues.error} retry={() => void queues.refetch()} />
      ) : queues.data.data.length === 0 ? (
        <EmptyState title="No annotation queues yet" command={`axonal queues create review -c <score config id> -p ${owner}/${project}`} />
      ) : (
        <table className="grid" aria-label="Annotation queues">
          <thead>
            <tr>
              <th>Name</th>
              <th>Description</th>
              <th>Score configs</th>
              <th>Created</th>
            </tr>
          </thead>
          <tbody>
            {queues.data.data.map((queue) => (
              <tr key={queue.id} data-queue-id={queue.id}>
                <td>
                  <Link to={`${base}/annotation-queues/${queue.id}`}>{queue.name}</Link>
                </td>
                <td>{queue.description ?? ""}</td>
                <td>{queue.score_config_ids.length}</td>
                <td>{formatTime(queue.created_at)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
