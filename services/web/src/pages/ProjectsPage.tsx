/** Every project, newest first, each a link to its runs. */
import { useQuery } from "@tanstack/react-query";
import { Link } from "react-router";
import { api, unwrap } from "../api/client";
import { EmptyState, ErrorView, Loading } from "../components/States";
import { formatTime } from "../lib/format";

export default function ProjectsPage() {
  const projects = useQuery({
    queryKey: ["projects"],
    queryFn: () => unwrap(api.GET("/api/v1/projects")),
  });
  if (projects.isPending) return <Loading what="Loading projects" />;
  if (projects.isError) return <ErrorView error={projects.error} retry={() => void projects.refetch()} />;
  const rows = projects.data.projects;
  return (
    <section>
      <h1>Projects</h1>
      {rows.length === 0 ? (
        <EmptyState title="No projects yet" command="axonal run -f polyaxonfile.yaml --project acme/demo">
          A project is created by the first run or trace sent to it, or by <code>axonal projects create</code>.
        </EmptyState>
      ) : (
        <table className="grid">
          <thead>
            <tr>
              <th>Project</th>
              <th>Description</th>
              <th>Created</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((p) => (
              <tr key={p.id}>
                <td>
                  <Link to={`/projects/${p.owner}/${p.name}/runs`}>
                    {p.owner}/{p.name}
                  </Link>
                </td>
                <td>{p.description || <span className="muted">–</span>}</td>
                <td>{formatTime(p.created_at)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
