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
import { keys, useConnections } from "./queries";
import { CreatePanel, DeleteButton, EventFilter, projectPath, useCreate } from "./shared";

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
        <table className="grid" aria-label="Alert rules">
          <thead>
            <tr>
              <th>Condition</th>
              <th className="num">For points</th>
              <th className="num">Hysteresis</th>
              <th>Only runs tagged</th>
              <th>Created</th>
              <th>
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((rule) => (
              <tr key={rule.id} data-rule-id={rule.id}>
                <td className="mono">
                  {rule.metric} {SYMBOLS[rule.comparison]} {rule.threshold != null ? formatNumber(rule.threshold) : ""}
                </td>
                <td className="num">{rule.for_points ?? 1}</td>
                <td className="num">{formatNumber(rule.hysteresis ?? 0)}</td>
                <td>{rule.tags?.join(", ") || <span className="muted">all runs</span>}</td>
                <td>{formatTime(rule.created_at)}</td>
                <td>
                  <DeleteButton
                    question={`Delete the rule ${rule.metric} ${SYMBOLS[rule.comparison]} ${rule.threshold ?? ""}?`}
                    queryKey={key}
                    remove={() =>
                      unwrap(api.DELETE("/api/v1/{owner}/{project}/alerts/{rule_id}", { params: { path: { owner, project, rule_id: rule.id } } }))
                    }
                  />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
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
        <table className="grid" aria-label="Alert routes">
          <thead>
            <tr>
              <th>Connection</th>
              <th>Events</th>
              <th className="num">Quiet period</th>
              <th className="num">Suppressed</th>
              <th>Created</th>
              <th>
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((route) => (
              <tr key={route.id} data-route-id={route.id}>
                <td>
                  <Link to={`${base}/connections/${encodeURIComponent(route.connection)}`}>{route.connection}</Link>
                  {route.description && <div className="muted small">{route.description}</div>}
                </td>
                <td>
                  <EventFilter events={route.events} kinds={route.kinds} statuses={route.statuses} tags={route.tags} />
                </td>
                <td className="num">{route.dedup_seconds ?? 300} s</td>
                <td className="num">{route.suppressed ?? 0}</td>
                <td>{formatTime(route.created_at)}</td>
                <td>
                  <DeleteButton
                    question={`Delete the route of ${route.events.join(", ")} to ${route.connection}?`}
                    queryKey={key}
                    remove={() =>
                      unwrap(
                        api.DELETE("/api/v1/{owner}/{project}/alert-routes/{route_id}", { params: { path: { owner, project, route_id: route.id } } }),
                      )
                    }
                  />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
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
