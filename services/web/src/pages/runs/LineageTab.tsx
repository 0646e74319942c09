/** Where a run's artifacts came from and went: the runs that produced or consumed the same ones. */
import { useQuery } from "@tanstack/react-query";
import { api, unwrap } from "../../api/client";
import type { components } from "../../api/schema";
import { EmptyState, ErrorView, Loading } from "../../components/States";
import { useProject } from "../../lib/params";
import { RunLink } from "./RunBits";
import { runKeys, useRunUuid } from "./useRun";

type LineageLink = components["schemas"]["LineageLink"];

function Runs({ uuids, none }: { uuids: string[]; none: string }) {
  if (uuids.length === 0) return <span className="muted">{none}</span>;
  return (
    <ul className="inline-list">
      {uuids.map((uuid) => (
        <li key={uuid}>
          <RunLink uuid={uuid} />
        </li>
      ))}
    </ul>
  );
}

function Links({ title, links, upstream }: { title: string; links: LineageLink[]; upstream: boolean }) {
  return (
    <section className="panel" aria-label={title}>
      <h2>{title}</h2>
      {links.length === 0 ? (
        <p className="muted">None.</p>
      ) : (
        <table className="grid">
          <thead>
            <tr>
              <th>Artifact</th>
              <th>Kind</th>
              <th>{upstream ? "Produced by (upstream)" : "Consumed by (downstream)"}</th>
              <th>{upstream ? "Also consumed by" : "Also produced by"}</th>
            </tr>
          </thead>
          <tbody>
            {links.map(({ artifact, produced_by, consumed_by }) => (
              <tr key={artifact.path} data-artifact={artifact.name}>
                <td>
                  <code>{artifact.name}</code>
                </td>
                <td>{artifact.kind}</td>
                <td>
                  <Runs uuids={upstream ? produced_by : consumed_by} none="no other run" />
                </td>
                <td>
                  <Runs uuids={upstream ? consumed_by : produced_by} none="–" />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

export default function LineageTab() {
  const { owner, project } = useProject();
  const uuid = useRunUuid();
  const lineage = useQuery({
    queryKey: runKeys.part(owner, project, uuid, "lineage"),
    queryFn: () => unwrap(api.GET("/api/v1/{owner}/{project}/runs/{run_uuid}/lineage", { params: { path: { owner, project, run_uuid: uuid } } })),
  });
  if (lineage.isPending) return <Loading what="Loading the lineage" />;
  if (lineage.isError) return <ErrorView error={lineage.error} retry={() => void lineage.refetch()} />;
  const { inputs, outputs } = lineage.data;
  if (inputs.length === 0 && outputs.length === 0) {
    return (
      <EmptyState title="No lineage yet" command={'tracking.log_artifact("data.csv", is_input=True)'}>
        A run's lineage links the artifacts it consumed and produced to the other runs that did the same.
      </EmptyState>
    );
  }
  return (
    <div className="lineage">
      <Links title="Inputs (upstream)" links={inputs} upstream />
      <Links title="Outputs (downstream)" links={outputs} upstream={false} />
    </div>
  );
}
