/** The runs list's filters, kept in the URL query string so a link keeps them. */
import type { operations } from "../../api/schema";
import type { RunStatus } from "./statuses";

type ListQuery = NonNullable<operations["list_runs_api_v1__owner___project__runs_get"]["parameters"]["query"]>;

export interface RunFilters {
  status?: RunStatus;
  kind?: string;
  tags: string[];
  name?: string;
  /** `YYYY-MM-DDTHH:mm` in the browser's zone, as a datetime-local input holds it. */
  createdAfter?: string;
  createdBefore?: string;
  page: number;
}

export const PAGE_SIZE = 50;

export const RUN_STATUSES: RunStatus[] = [
  "created", "resuming", "on_schedule", "compiled", "queued", "scheduled", "starting", "running", "processing",
  "stopping", "failed", "stopped", "succeeded", "skipped", "warning", "unschedulable", "upstream_failed", "retrying", "unknown",
];
export const RUN_KINDS = ["job", "service", "dag", "matrix", "tfjob", "pytorchjob", "mpijob", "ray", "dask"];

const opt = (value: string | null): string | undefined => value?.trim() || undefined;

export function readFilters(params: URLSearchParams): RunFilters {
  const status = params.get("status");
  const page = Number.parseInt(params.get("page") ?? "1", 10);
  return {
    status: RUN_STATUSES.includes(status as RunStatus) ? (status as RunStatus) : undefined,
    kind: opt(params.get("kind")),
    tags: params.getAll("tag").filter(Boolean),
    name: opt(params.get("name")),
    createdAfter: opt(params.get("after")),
    createdBefore: opt(params.get("before")),
    page: Number.isFinite(page) && page > 0 ? page : 1,
  };
}

export function writeFilters(filters: RunFilters): URLSearchParams {
  const params = new URLSearchParams();
  if (filters.status) params.set("status", filters.status);
  if (filters.kind) params.set("kind", filters.kind);
  for (const tag of filters.tags) params.append("tag", tag);
  if (filters.name) params.set("name", filters.name);
  if (filters.createdAfter) params.set("after", filters.createdAfter);
  if (filters.createdBefore) params.set("before", filters.createdBefore);
  if (filters.page > 1) params.set("page", String(filters.page));
  return params;
}

/** A local time as the api wants it: ISO 8601 with its zone. */
function isoOf(local: string | undefined): string | undefined {
  if (!local) return undefined;
  const date = new Date(local);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

export function toQuery(filters: RunFilters): ListQuery {
  return {
    status: filters.status,
    kind: filters.kind,
    tag: filters.tags.length ? filters.tags : undefined,
    name: filters.name,
    created_after: isoOf(filters.createdAfter),
    created_before: isoOf(filters.createdBefore),
    limit: PAGE_SIZE,
    offset: (filters.page - 1) * PAGE_SIZE,
  };
}

export const hasFilters = (f: RunFilters): boolean =>
  Boolean(f.status || f.kind || f.tags.length || f.name || f.createdAfter || f.createdBefore);
