/** Alerts: the metric rules that fire `metric.crossed`, and the routes that send events to a connection. */
import { useQuery } from "@tanstack/react-query";
import { Link } from "react-router";
import { api, unwrap } from "../../api/client";
import type { components } from "../../api/schema";
import { type FieldSpec, Form, type FormValues } from "../../components/Form";
import { EmptyState, ErrorView, Loading } from "../../components/States";
import { formatNumber, formatTime } from "../../lib/format";
import { useProject } from "../../lib/params";
import { list, number, text } from "../../lib/values";
import { ItemTable } from "./ItemTable";
import { keys, useConnections } from "./queries";
import { CreatePanel, EventFilter, projectPath, useCreate } from "./shared";

type Comparison = components["schemas"]["Comparison"];
type AlertCondition = components["schemas"]["AlertCondition"];
type AlertRouteConfig = components["schemas"]["AlertRouteConfig"];

const COMPARISONS: Comparison[] = ["gt", "gte", "lt", "lte", "eq", "is_nan", "is_inf"];
const SYMBOLS: Record<Comparison, string> = { gt: ">", gte: "≥", lt: "<", lte: "≤", eq: "=", is_nan: "is NaN", is_inf: "is infinite" };
const takesThreshold = (values: FormValues) => values.comparison !== "is_nan" && values.comparison !== "is_inf";

export const RULE_FIELDS: FieldSpec[] = [
  { name: "metric", label: "Metric", required: true, placeholder: "loss" },
  { name: "comparison", label: "Comparison", kind: "select", options: COMPARISONS, initial: "gt" },
  { name: "threshold", label: "Threshold", kind: "number", required: true, when: takesThreshold },
  { name: "for_points", label: "For consecutive points", kind: "number", initial: "1" },
  { name: "hysteresis", label: "Hysteresis", kind: "number", hint: "Margin the value must clear before the rule can fire again.", when: takesThreshold },
  { name: "tags", label: "Only runs tagged", placeholder: "nightly" },
];

export function ruleBody(values: FormValues): AlertCondition {
  const threshold = takesThreshold(values);
  return {
    metric: text(values, "metric"),
    comparison: text(values, "comparison") as Comparison,
    threshold: threshold ? (number(values, "threshold") ?? null) : null,
    for_points: number(values, "for_points") ?? 1,
    hysteresis: threshold ? (number(values, "hysteresis") ?? 0) : 0,
    tags: list(values, "tags"),
  };
}

export function routeFields(connections: string[]): FieldSpec[] {
  return [
    { name: "connection", label: "Connection", kind: "select", options: connections, placeholder: "Choose a connection", required: true },
    { name: "events", label: "Events", required: true, initial: "metric.crossed", hint: "Event types or wildcards, comma-separated." },
    { name: "kinds", label: "Only run kinds" },
    { name: "statuses", label: "Only statuses" },
    { name: "tags", label: "Only with tags" },
    { name: "dedup_seconds", label: "Quiet period (seconds)", kind: "number", initial: "300", hint: "The same alert within it is sent once." },
    { name: "description", label: "Description" },
  ];
}

export function routeBody(values: FormValues): AlertRouteConfig {
  return {
    connection: text(values, "connection"),
    events: list(values, "events"),
    kinds: list(values, "kinds"),
    statuses: list(values, "statuses"),
    tags: list(values, "tags"),
    dedup_seconds: number(values, "dedup_seconds") ?? 300,
    description: text(values, "description"),
  };
}

export default function AlertsPage() {
  return (
    <section>
      <h1>Alerts</h1>
      <AlertRules />
      <AlertRoutes />
    </section>
  );
}

function AlertRules() {
  const { owner, project } = useProject();
  const key = keys.alerts(owner, project);
  const rules = useQuery({
    queryKey: key,
    queryFn: () => unwrap(api.GET("/api/v1/{owner}/{project}/alerts", projectPath(owner, project))),
  });
  const create = useCreate(key, (values) => unwrap(api.POST("/api/v1/{owner}/{project}/alerts", { ...projectPath(owner, project), body: ruleBody(values) })));
  const rows = rules.data?.rules ?? [];
  return (
    <section aria-labelledby="rules-title">
      <h2 id="rules-title">Alert rules</h2>
      {rules.isPending ? (
        <Loading what="Loading alert rules" />
      ) : rules.isError ? (
        <ErrorView error={rules.error} retry={() => void rules.refetch()} />
      ) : rows.length === 0 ? (
        <EmptyState title="No alert rules yet" command={`axonal alerts create loss gt 5 --for 3 -p ${owner}/${project}`}>
          A rule fires a metric.crossed event each time a run's metric crosses it.
        </EmptyState>
      ) : (
        <ItemTable
          label="Alert rules"
          items={rows}
          columns={[
            {
              header: "Condition",
              className: "mono",
              cell: (rule) => (
                <>
                  {rule.metric} {SYMBOLS[rule.comparison]} {rule.threshold != null ? formatNumber(rule.threshold) : ""}
                </>
              ),
            },
            { header: "For points", numeric: true, cell: (rule) => rule.for_points ?? 1 },
            { header: "Hysteresis", numeric: true, cell: (rule) => formatNumber(rule.hysteresis ?? 0) },
            { header: "Only runs tagged", cell: (rule) => rule.tags?.join(", ") || <span className="muted">all runs</span> },
            { header: "Created", cell: (rule) => formatTime(rule.created_at) },
          ]}
          rowKey={(rule) => rule.id}
          rowData={(rule) => ({ "data-rule-id": rule.id })}
          queryKey={key}
          deletion={{
            question: (rule) => `Delete the rule ${rule.metric} ${SYMBOLS[rule.comparison]} ${rule.threshold ?? ""}?`,
            remove: (rule) => unwrap(api.DELETE("/api/v1/{owner}/{project}/alerts/{rule_id}", { params: { path: { owner, project, rule_id: rule.id } } })),
          }}
        />
      )}
      <CreatePanel title="New alert rule" open={rules.isSuccess && rows.length === 0}>
        <Form label="Create alert rule" fields={RULE_FIELDS} mutation={create} />
      </CreatePanel>
    </section>
  );
}

function AlertRoutes() {
  const { owner, project, base } = useProject();
  const key = keys.alertRoutes(owner, project);
  const routes = useQuery({
    queryKey: key,
    queryFn: () => unwrap(api.GET("/api/v1/{owner}/{project}/alert-routes", projectPath(owner, project))),
  });
  const connections = useConnections(owner, project);
  const create = useCreate(key, (values) =>
    unwrap(api.POST("/api/v1/{owner}/{project}/alert-routes", { ...projectPath(owner, project), body: routeBody(values) })),
  );
  const rows = routes.data?.routes ?? [];
  const names = (connections.data?.connections ?? []).map((c) => c.name);
  return (
    <section aria-labelledby="routes-title">
      <h2 id="routes-title">Alert routes</h2>
      <p className="muted">Where alerts go: the project's events that match a route are sent to its connection.</p>
      {routes.isPending ? (
        <Loading what="Loading alert routes" />
      ) : routes.isError ? (
        <ErrorView error={routes.error} retry={() => void routes.refetch()} />
      ) : rows.length === 0 ? (
        <EmptyState title="No alert routes yet" command={`axonal connections routes create oncall -e metric.crossed -p ${owner}/${project}`}>
          A route needs a <Link to={`${base}/connections`}>connection</Link> to send to.
        </EmptyState>
      ) : (
        <ItemTable
          label="Alert routes"
          items={rows}
          columns={[
            {
              header: "Connection",
              cell: (route) => (
                <>
                  <Link to={`${base}/connections/${encodeURIComponent(route.connection)}`}>{route.connection}</Link>
                  {route.description && <div className="muted small">{route.description}</div>}
                </>
              ),
            },
            { header: "Events", cell: (route) => <EventFilter events={route.events} kinds={route.kinds} statuses={route.statuses} tags={route.tags} /> },
            { header: "Quiet period", numeric: true, cell: (route) => `${route.dedup_seconds ?? 300} s` },
            { header: "Suppressed", numeric: true, cell: (route) => route.suppressed ?? 0 },
            { header: "Created", cell: (route) => formatTime(route.created_at) },
          ]}
          rowKey={(route) => route.id}
          rowData={(route) => ({ "data-route-id": route.id })}
          queryKey={key}
          deletion={{
            question: (route) => `Delete the route of ${route.events.join(", ")} to ${route.connection}?`,
            remove: (route) =>
              unwrap(api.DELETE("/api/v1/{owner}/{project}/alert-routes/{route_id}", { params: { path: { owner, project, route_id: route.id } } })),
          }}
        />
      )}
      {connections.isSuccess && (
        <CreatePanel title="New alert route" open={routes.isSuccess && rows.length === 0 && names.length > 0}>
          {names.length === 0 ? (
            <p className="muted">
              Create a <Link to={`${base}/connections`}>connection</Link> first.
            </p>
          ) : (
            <Form label="Create alert route" fields={routeFields(names)} mutation={create} />
          )}
        </CreatePanel>
      )}
    </section>
  );
}
