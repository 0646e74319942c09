/** One connection: where it delivers, and its delivery log with replay. */
import { useQuery } from "@tanstack/react-query";
import { useMemo } from "react";
import { Link, useParams } from "react-router";
import { api, unwrap } from "../../api/client";
import { ErrorView, Loading } from "../../components/States";
import { useProject } from "../../lib/params";
import { Target } from "./ConnectionsPage";
import { DeliveryLog, type DeliverySource } from "./DeliveryLog";
import { keys } from "./queries";
import { TargetFacts } from "./shared";

function useConnectionDeliveries(owner: string, project: string, name: string): DeliverySource {
  return useMemo(() => {
    const path = { owner, project, name };
    return {
      key: ["deliveries", "connection", owner, project, name],
      list: (status) => unwrap(api.GET("/api/v1/{owner}/{project}/connections/{name}/deliveries", { params: { path, query: { status } } })),
      replayOne: (deliveryId) =>
        unwrap(
          api.POST("/api/v1/{owner}/{project}/connections/{name}/deliveries/{delivery_id}/replay", {
            params: { path: { ...path, delivery_id: deliveryId } },
          }),
        ),
      replayDead: (window) => unwrap(api.POST("/api/v1/{owner}/{project}/connections/{name}/replay", { params: { path }, body: window ?? undefined })),
    };
  }, [owner, project, name]);
}

export default function ConnectionPage() {
  const { owner, project, base } = useProject();
  const { name = "" } = useParams();
  const connection = useQuery({
    queryKey: [...keys.connections(owner, project), name],
    queryFn: () => unwrap(api.GET("/api/v1/{owner}/{project}/connections/{name}", { params: { path: { owner, project, name } } })),
  });
  const source = useConnectionDeliveries(owner, project, name);
  if (connection.isPending) return <Loading what="Loading the connection" />;
  if (connection.isError) return <ErrorView error={connection.error} retry={() => void connection.refetch()} />;
  const c = connection.data;
  return (
    <section>
      <p>
        <Link to={`${base}/connections`}>← Connections</Link>
      </p>
      <h1>{c.name}</h1>
      <TargetFacts target={c}>
        <dt>Kind</dt>
        <dd>{c.kind}</dd>
        <dt>Target</dt>
        <dd>
          <Target connection={c} />
        </dd>
      </TargetFacts>
      <DeliveryLog source={source} empty="Deliveries are recorded when a hook or an alert route sends through this connection." />
    </section>
  );
}
