/** Every component of the hub: the pushed ones, then the built-ins, each with its tags. */
import { Link } from "react-router";
import { EmptyState, ErrorView, Loading } from "../../components/States";
import { formatTime } from "../../lib/format";
import "./hub.css";
import { byComponent, latestOf, useVersions } from "./queries";

export default function HubPage() {
  const versions = useVersions();
  if (versions.isPending) return <Loading what="Loading the hub" />;
  if (versions.isError) return <ErrorView error={versions.error} retry={() => void versions.refetch()} />;
  const components = byComponent(versions.data.components);
  return (
    <section>
      <h1>Component hub</h1>
      <p className="muted">
        An operation runs a component with <code>hubRef: owner/name:tag</code>. A tag is immutable; <code>latest</code> is the newest push.
      </p>
      {components.length === 0 ? (
        <EmptyState title="No components yet" command="axonal hub push -f component.yaml --name acme/trainer:v1" />
      ) : (
        <table className="grid" aria-label="Components">
          <thead>
            <tr>
              <th>Component</th>
              <th>Tags</th>
              <th>Description</th>
              <th>Last push</th>
            </tr>
          </thead>
          <tbody>
            {components.map((c) => {
              const latest = latestOf(c);
              return (
                <tr key={`${c.owner}/${c.name}`} data-component={`${c.owner}/${c.name}`}>
                  <td>
                    <Link to={`/hub/${c.owner}/${c.name}`}>
                      {c.owner}/{c.name}
                    </Link>
                    {c.builtin && <span className="muted"> built-in</span>}
                  </td>
                  <td>
                    <div className="tags">
                      {c.versions.map((v) => (
                        <Link key={v.tag} to={`/hub/${c.owner}/${c.name}?tag=${encodeURIComponent(v.tag)}`} className="tag">
                          {v.tag}
                          {v.latest && v.tag !== "latest" ? " (latest)" : ""}
                        </Link>
                      ))}
                    </div>
                  </td>
                  <td>{latest?.description || <span className="muted">–</span>}</td>
                  <td>{latest ? formatTime(latest.pushed_at) : ""}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
    </section>
  );
}
