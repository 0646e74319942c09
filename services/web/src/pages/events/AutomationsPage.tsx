/** The project's automation rules: what they watch, what they do; create and delete. */
import { Link } from "react-router";
import { api, unwrap } from "../../api/client";
import type { components } from "../../api/schema";
import { type FieldSpec, Form, type FormValues } from "../../components/Form";
import { EmptyState, ErrorView, Loading } from "../../components/States";
import { formatTime } from "../../lib/format";
import { useProject } from "../../lib/params";
import { flag, optional, pairs, text, textPairs } from "../../lib/values";
import { ItemTable } from "./ItemTable";
import { keys, useAutomations } from "./queries";
import { CreatePanel, Enabled, projectPath, useCreate } from "./shared";

type Automation = components["schemas"]["AutomationInfo"];
type AutomationConfig = components["schemas"]["AutomationConfig"];

const starts = (values: FormValues) => values.action === "start";

export const AUTOMATION_FIELDS: FieldSpec[] = [
  { name: "name", label: "Name", required: true, placeholder: "retrain" },
  { name: "action", label: "Action", kind: "select", options: ["start", "restart"], initial: "start", hint: "restart: restart a failed run once." },
  { name: "event", label: "On event", required: true, initial: "run.failed", hint: "An event type or wildcard: run.failed, run.*, dataset.updated." },
  { name: "external", label: "Events posted by outside systems", kind: "checkbox" },
  { name: "source", label: "Only from source", when: (values) => values.external === true },
  { name: "where", label: "Only where", kind: "textarea", placeholder: "data.kind = job", hint: "One path = value per line." },
  { name: "hub_ref", label: "Component to start", placeholder: "tensorboard", when: starts },
  { name: "polyaxonfile", label: "Or a polyaxonfile to start", kind: "textarea", placeholder: "version: 1.1\nkind: component\n…", when: starts },
  { name: "params", label: "Params", kind: "textarea", placeholder: "lr = 0.01", hint: "One name = value per line.", when: starts },
  { name: "params_from", label: "Params from the event", kind: "textarea", placeholder: "dataset = data.uri", hint: "One name = event path per line.", when: starts },
  { name: "queue", label: "Queue", when: starts },
  { name: "enabled", label: "Enabled", kind: "checkbox", initial: true },
];

export function automationBody(values: FormValues): AutomationConfig {
  const external = flag(values, "external");
  const common = {
    name: text(values, "name"),
    action: text(values, "action") as AutomationConfig["action"],
    event: text(values, "event"),
    external,
    source: external ? optional(values, "source") : undefined,
    where: pairs(values, "where"),
    enabled: flag(values, "enabled"),
  };
  if (!starts(values)) return common;
  return {
    ...common,
    hub_ref: optional(values, "hub_ref"),
    polyaxonfile: optional(values, "polyaxonfile"),
    params: pairs(values, "params"),
    params_from: textPairs(values, "params_from"),
    queue: optional(values, "queue"),
  };
}

/** What a rule watches: its event, where it comes from, and its conditions. */
export function Trigger({ rule }: { rule: Automation }) {
  const where = Object.entries(rule.where ?? {});
  return (
    <span>
      <code className="chip">{rule.event}</code>
      {rule.external && <span className="muted"> external{rule.source ? ` from ${rule.source}` : ""}</span>}
      {where.map(([path, value]) => (
        <span key={path} className="muted">
          {" "}
          {path} = {JSON.stringify(value)}
        </span>
      ))}
    </span>
  );
}

/** What a rule does when it fires. */
export function Action({ rule }: { rule: Automation }) {
  if (rule.action === "restart") return <span>restart the failed run</span>;
  return (
    <span>
      start <code>{rule.hub_ref ?? "its polyaxonfile"}</code>
      {Object.keys(rule.params_from ?? {}).length > 0 && <span className="muted"> with params from the event</span>}
    </span>
  );
}

export default function AutomationsPage() {
  const { owner, project, base } = useProject();
  const key = keys.automations(owner, project);
  const rules = useAutomations(owner, project);
  const create = useCreate(key, (values) =>
    unwrap(api.POST("/api/v1/{owner}/{project}/automations", { ...projectPath(owner, project), body: automationBody(values) })),
  );
  if (rules.isPending) return <Loading what="Loading automations" />;
  if (rules.isError) return <ErrorView error={rules.error} retry={() => void rules.refetch()} />;
  const rows = rules.data.automations;
  return (
    <section>
      <h1>Automations</h1>
      {rows.length === 0 ? (
        <EmptyState title="No automations yet" command={`axonal automations create retry --restart -p ${owner}/${project}`}>
          An automation starts a run when an event happens, or restarts a failed run once.
        </EmptyState>
      ) : (
        <ItemTable
          label="Automations"
          items={rows}
          columns={[
            { header: "Name", cell: (rule) => <Link to={`${base}/automations/${rule.id}`}>{rule.name}</Link> },
            { header: "Trigger", cell: (rule) => <Trigger rule={rule} /> },
            { header: "Action", cell: (rule) => <Action rule={rule} /> },
            { header: "State", cell: (rule) => <Enabled enabled={rule.enabled ?? true} /> },
            { header: "Firings", numeric: true, cell: (rule) => rule.firings ?? 0 },
            { header: "Created", cell: (rule) => formatTime(rule.created_at) },
          ]}
          rowKey={(rule) => rule.id}
          rowData={(rule) => ({ "data-automation-id": rule.id })}
          queryKey={key}
          deletion={{
            question: (rule) => `Delete the automation ${rule.name} and its firings?`,
            remove: (rule) =>
              unwrap(
                api.DELETE("/api/v1/{owner}/{project}/automations/{automation_id}", { params: { path: { owner, project, automation_id: rule.id } } }),
              ),
          }}
        />
      )}
      <CreatePanel title="New automation" open={rows.length === 0}>
        <Form label="Create automation" fields={AUTOMATION_FIELDS} mutation={create} />
      </CreatePanel>
    </section>
  );
}
