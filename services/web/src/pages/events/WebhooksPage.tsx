/** The project's webhook subscriptions: list, create (the signing secret shown once), delete. */
import { Link } from "react-router";
import { api, unwrap } from "../../api/client";
import { type FieldSpec, Form, type FormValues } from "../../components/Form";
import { EmptyState, ErrorView, Loading } from "../../components/States";
import { formatTime } from "../../lib/format";
import { useProject } from "../../lib/params";
import { list, text } from "../../lib/values";
import { ItemTable } from "./ItemTable";
import { keys, useWebhooks } from "./queries";
import { CreatePanel, Enabled, EventFilter, projectPath, useCreateWithSecret } from "./shared";

export const WEBHOOK_FIELDS: FieldSpec[] = [
  { name: "url", label: "URL", required: true, placeholder: "https://ci.example.com/hook", hint: "Receives signed POSTs (Standard Webhooks)." },
  { name: "events", label: "Events", required: true, placeholder: "run.*, metric.crossed", hint: "Event types or wildcards, comma-separated; * for all." },
  { name: "kinds", label: "Only run kinds", placeholder: "job, dag" },
  { name: "statuses", label: "Only statuses", placeholder: "failed, succeeded" },
  { name: "tags", label: "Only with tags", placeholder: "nightly" },
  { name: "description", label: "Description" },
];

export function webhookBody(values: FormValues) {
  return {
    url: text(values, "url"),
    events: list(values, "events"),
    kinds: list(values, "kinds"),
    statuses: list(values, "statuses"),
    tags: list(values, "tags"),
    description: text(values, "description"),
  };
}

export default function WebhooksPage() {
  const { owner, project, base } = useProject();
  const key = keys.webhooks(owner, project);
  const hooks = useWebhooks(owner, project);
  const { create, secret } = useCreateWithSecret(
    key,
    (values) => unwrap(api.POST("/api/v1/{owner}/{project}/webhooks", { ...projectPath(owner, project), body: webhookBody(values) })),
  );
  if (hooks.isPending) return <Loading what="Loading webhooks" />;
  if (hooks.isError) return <ErrorView error={hooks.error} retry={() => void hooks.refetch()} />;
  const rows = hooks.data.webhooks;
  return (
    <section>
      <h1>Webhooks</h1>
      {rows.length === 0 ? (
        <EmptyState title="No webhooks yet" command={`axonal webhooks create https://ci.example.com/hook -e 'run.*' -p ${owner}/${project}`}>
          A webhook receives the project's events as signed CloudEvents. Add one below or with the CLI.
        </EmptyState>
      ) : (
        <ItemTable
          label="Webhooks"
          items={rows}
          columns={[
            {
              header: "URL",
              cell: (hook) => (
                <>
                  <Link to={`${base}/webhooks/${hook.id}`} className="mono">
                    {hook.url}
                  </Link>
                  {hook.description && <div className="muted small">{hook.description}</div>}
                </>
              ),
            },
            { header: "Events", cell: (hook) => <EventFilter events={hook.events} kinds={hook.kinds} statuses={hook.statuses} tags={hook.tags} /> },
            { header: "State", cell: (hook) => <Enabled enabled={hook.enabled} reason={hook.disabled_reason} /> },
            { header: "Created", cell: (hook) => formatTime(hook.created_at) },
          ]}
          rowKey={(hook) => hook.id}
          rowData={(hook) => ({ "data-webhook-id": hook.id })}
          queryKey={key}
          deletion={{
            question: (hook) => `Delete the webhook to ${hook.url} and its delivery log?`,
            remove: (hook) =>
              unwrap(api.DELETE("/api/v1/{owner}/{project}/webhooks/{webhook_id}", { params: { path: { owner, project, webhook_id: hook.id } } })),
          }}
        />
      )}
      <CreatePanel title="New webhook" open={rows.length === 0}>
        <Form label="Create webhook" fields={WEBHOOK_FIELDS} mutation={create} />
      </CreatePanel>
      {secret}
    </section>
  );
}
