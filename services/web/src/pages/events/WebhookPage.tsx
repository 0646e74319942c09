/** One webhook: where it sends, what it wants, and its delivery log with replay. */
import { useMemo } from "react";
import { Link, useParams } from "react-router";
import { api, ApiError, unwrap } from "../../api/client";
import { ErrorView, Loading } from "../../components/States";
import { useProject } from "../../lib/params";
import { DeliveryLog, type DeliverySource } from "./DeliveryLog";
import { useWebhooks } from "./queries";
import { EventFilter, TargetFacts } from "./shared";

function useWebhookDeliveries(owner: string, project: string, webhookId: string): DeliverySource {
  return useMemo(() => {
    const path = { owner, project, webhook_id: webhookId };
    return {
      key: ["deliveries", "webhook", owner, project, webhookId],
      list: (status) =>
        unwrap(api.GET("/api/v1/{owner}/{project}/webhooks/{webhook_id}/deliveries", { params: { path, query: { status } } })),
      replayOne: (deliveryId) =>
        unwrap(
          api.POST("/api/v1/{owner}/{project}/webhooks/{webhook_id}/deliveries/{delivery_id}/replay", {
            params: { path: { ...path, delivery_id: deliveryId } },
          }),
        ),
      replayDead: (window) =>
        unwrap(api.POST("/api/v1/{owner}/{project}/webhooks/{webhook_id}/replay", { params: { path }, body: window ?? undefined })),
    };
  }, [owner, project, webhookId]);
}

export default function WebhookPage() {
  const { owner, project, base } = useProject();
  const { webhookId = "" } = useParams();
  const hooks = useWebhooks(owner, project);
  const source = useWebhookDeliveries(owner, project, webhookId);
  if (hooks.isPending) return <Loading what="Loading the webhook" />;
  if (hooks.isError) return <ErrorView error={hooks.error} retry={() => void hooks.refetch()} />;
  const hook = hooks.data.webhooks.find((w) => w.id === webhookId);
  if (!hook) return <ErrorView error={new ApiError(404, "not_found", `No webhook ${webhookId} in ${owner}/${project}.`)} />;
  return (
    <section>
      <p>
        <Link to={`${base}/webhooks`}>← Webhooks</Link>
      </p>
      <h1 className="mono">{hook.url}</h1>
      <TargetFacts target={hook}>
        <dt>Events</dt>
        <dd>
          <EventFilter events={hook.events} kinds={hook.kinds} statuses={hook.statuses} tags={hook.tags} />
        </dd>
      </TargetFacts>
      <DeliveryLog source={source} empty="A delivery is recorded for each event this webhook wants, e.g. when a run finishes." />
    </section>
  );
}
