/** One automation rule and its firings: when, on which event, with which outcome and run. */
import { useQuery } from "@tanstack/react-query";
import { Link, useParams } from "react-router";
import { api, ApiError, unwrap } from "../../api/client";
import { EmptyState, ErrorView, Loading } from "../../components/States";
import { StatusBadge } from "../../components/StatusBadge";
import { formatTime } from "../../lib/format";
import { useProject } from "../../lib/params";
import { Action, Trigger } from "./AutomationsPage";
import { useAutomations } from "./queries";
import { Enabled } from "./shared";

/** Firings come whenever an event does: the list is read again this often. */
export const FIRINGS_POLL_MS = 5_000;

export default function AutomationPage() {
  const { owner, project, base } = useProject();
  const { automationId = "" } = useParams();
  const rules = useAutomations(owner, project);
  const firings = useQuery({
    queryKey: ["firings", owner, project, automationId],
    queryFn: () =>
      unwrap(
        api.GET("/api/v1/{owner}/{project}/automations/{automation_id}/firings", {
          params: { path: { owner, project, automation_id: automationId } },
        }),
      ),
    refetchInterval: FIRINGS_POLL_MS,
  });
  if (rules.isPending) return <Loading what="Loading the automation" />;
  if (rules.isError) return <ErrorView error={rules.error} retry={() => void rules.refetch()} />;
  const rule = rules.data.automations.find((r) => r.id === automationId);
  if (!rule) return <ErrorView error={new ApiError(404, "not_found", `No automation ${automationId} in ${owner}/${project}.`)} />;
  return (
    <section>
      <p>
        <Link to={`${base}/automations`}>← Automations</Link>
      </p>
      <h1>{rule.name}</h1>
      <dl className="pairs">
        <dt>Trigger</dt>
        <dd>
          <Trigger rule={rule} />
        </dd>
        <dt>Action</dt>
        <dd>
          <Action rule={rule} />
        </dd>
        <dt>State</dt>
        <dd>
          <Enabled enabled={rule.enabled ?? true} />
        </dd>
        <dt>Created</dt>
        <dd>{formatTime(rule.created_at)}</dd>
      </dl>
      <h2>Firings</h2>
      {firings.isPending ? (
        <Loading what="Loading firings" />
      ) : firings.isError ? (
        <ErrorView error={firings.error} retry={() => void firings.refetch()} />
      ) : firings.data.firings.length === 0 ? (
        <EmptyState title="It has not fired yet">The rule fires on the next {rule.event} event of the project.</EmptyState>
      ) : (
        <table className="grid" aria-label="Firings">
          <thead>
            <tr>
              <th>At</th>
              <th>Event</th>
              <th>Outcome</th>
              <th>Run</th>
              <th>Detail</th>
            </tr>
          </thead>
          <tbody>
            {firings.data.firings.map((f) => (
              <tr key={`${f.event_id}-${f.at}`} data-event-id={f.event_id} data-outcome={f.outcome}>
                <td>{formatTime(f.at)}</td>
                <td>
                  <div>{f.event_type}</div>
                  <code className="muted small">{f.event_id}</code>
                </td>
                <td>
                  <StatusBadge status={f.outcome} />
                </td>
                <td>
                  {f.run_uuid ? (
                    <Link to={`${base}/runs/${f.run_uuid}`} className="mono">
                      {f.run_uuid.slice(0, 12)}
                    </Link>
                  ) : (
                    <span className="muted">–</span>
                  )}
                </td>
                <td>{f.detail ?? ""}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
