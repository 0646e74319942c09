/** The project's connections (notifier targets): list, create (a webhook's secret shown once), delete. */
import { Link } from "react-router";
import { api, unwrap } from "../../api/client";
import type { components } from "../../api/schema";
import { type FieldSpec, Form, type FormValues } from "../../components/Form";
import { EmptyState, ErrorView, Loading } from "../../components/States";
import { formatTime } from "../../lib/format";
import { useProject } from "../../lib/params";
import { list, number, optional, text } from "../../lib/values";
import { ItemTable } from "./ItemTable";
import { keys, useConnections } from "./queries";
import { CreatePanel, Enabled, projectPath, useCreateWithSecret } from "./shared";

type ConnectionKind = components["schemas"]["ConnectionKind"];
type ConnectionConfig = components["schemas"]["ConnectionConfig"];
export type Connection = components["schemas"]["ConnectionInfo"];

const KINDS: ConnectionKind[] = ["webhook", "slack", "discord", "mattermost", "teams", "pagerduty", "email"];
const isEmail = (values: FormValues) => values.kind === "email";

export const CONNECTION_FIELDS: FieldSpec[] = [
  { name: "name", label: "Name", required: true, placeholder: "oncall", hint: "Hooks and alert routes refer to it by this name." },
  { name: "kind", label: "Kind", kind: "select", options: KINDS, initial: "slack" },
  {
    name: "url",
    label: "URL",
    placeholder: "https://hooks.slack.com/services/…",
    hint: "The incoming webhook (PagerDuty: leave empty for Events API v2).",
    when: (values) => !isEmail(values),
  },
  { name: "routing_key", label: "Routing key", kind: "password", when: (values) => values.kind === "pagerduty" },
  { name: "smtp.host", label: "SMTP host", required: true, when: isEmail },
  { name: "smtp.port", label: "SMTP port", kind: "number", initial: "587", when: isEmail },
  { name: "smtp.security", label: "Security", kind: "select", options: ["starttls", "tls", "none"], initial: "starttls", when: isEmail },
  { name: "smtp.username", label: "SMTP user", when: isEmail },
  { name: "smtp.password", label: "SMTP password", kind: "password", when: isEmail },
  { name: "smtp.sender", label: "From", required: true, placeholder: "axonal@example.com", when: isEmail },
  { name: "smtp.to", label: "To", required: true, placeholder: "team@example.com, oncall@example.com", when: isEmail },
  { name: "description", label: "Description" },
];

export function connectionBody(values: FormValues): ConnectionConfig {
  const kind = text(values, "kind") as ConnectionKind;
  const base = { name: text(values, "name"), kind, description: text(values, "description") };
  if (kind === "email") {
    return {
      ...base,
      smtp: {
        host: text(values, "smtp.host"),
        port: number(values, "smtp.port") ?? 587,
        security: text(values, "smtp.security") as components["schemas"]["SmtpSecurity"],
        username: optional(values, "smtp.username"),
        password: optional(values, "smtp.password"),
        sender: text(values, "smtp.sender"),
        to: list(values, "smtp.to"),
      },
    };
  }
  return { ...base, url: optional(values, "url"), routing_key: kind === "pagerduty" ? optional(values, "routing_key") : undefined };
}

/** Where a connection delivers, as much as its masked reply says. */
export function Target({ connection }: { connection: Connection }) {
  if (connection.smtp) return <span className="mono">{connection.smtp.to.join(", ")} via {connection.smtp.host}</span>;
  return (
    <span className="mono">
      {connection.url ?? "–"}
      {connection.routing_key && <span className="muted"> key {connection.routing_key}</span>}
    </span>
  );
}

export default function ConnectionsPage() {
  const { owner, project, base } = useProject();
  const key = keys.connections(owner, project);
  const connections = useConnections(owner, project);
  const { create, secret } = useCreateWithSecret(
    key,
    (values) => unwrap(api.POST("/api/v1/{owner}/{project}/connections", { ...projectPath(owner, project), body: connectionBody(values) })),
  );
  if (connections.isPending) return <Loading what="Loading connections" />;
  if (connections.isError) return <ErrorView error={connections.error} retry={() => void connections.refetch()} />;
  const rows = connections.data.connections;
  return (
    <section>
      <h1>Connections</h1>
      {rows.length === 0 ? (
        <EmptyState title="No connections yet" command={`axonal connections create team slack --url https://hooks.slack.com/services/… -p ${owner}/${project}`}>
          A connection is a place notifications go: Slack, Discord, Mattermost, Teams, PagerDuty, email or a signed webhook.
        </EmptyState>
      ) : (
        <ItemTable
          label="Connections"
          items={rows}
          columns={[
            {
              header: "Name",
              cell: (c) => (
                <>
                  <Link to={`${base}/connections/${encodeURIComponent(c.name)}`}>{c.name}</Link>
                  {c.description && <div className="muted small">{c.description}</div>}
                </>
              ),
            },
            { header: "Kind", cell: (c) => c.kind },
            { header: "Target", cell: (c) => <Target connection={c} /> },
            { header: "State", cell: (c) => <Enabled enabled={c.enabled} reason={c.disabled_reason} /> },
            { header: "Created", cell: (c) => formatTime(c.created_at) },
          ]}
          rowKey={(c) => c.id}
          rowData={(c) => ({ "data-connection": c.name })}
          queryKey={key}
          deletion={{
            question: (c) => `Delete the connection ${c.name}, its delivery log and the alert routes to it?`,
            remove: (c) => unwrap(api.DELETE("/api/v1/{owner}/{project}/connections/{name}", { params: { path: { owner, project, name: c.name } } })),
          }}
        />
      )}
      <CreatePanel title="New connection" open={rows.length === 0}>
        <Form label="Create connection" fields={CONNECTION_FIELDS} mutation={create} />
      </CreatePanel>
      {secret}
    </section>
  );
}
