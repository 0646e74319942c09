/** The trace list's filters: from the query string to the api's query parameters. */
import type { Field } from "./FilterForm";

/** The time ranges offered, by their key in the URL. */
export const RANGES: Record<string, { label: string; ms: number }> = {
  "1h": { label: "Last hour", ms: 3_600_000 },
  "24h": { label: "Last 24 hours", ms: 86_400_000 },
  "7d": { label: "Last 7 days", ms: 7 * 86_400_000 },
  "30d": { label: "Last 30 days", ms: 30 * 86_400_000 },
};

/** The trace list's filter form, each field named as its key in the URL. */
export const TRACE_FILTERS: Field[] = [
  { key: "range", label: "Time", options: [["", "All time"], ...Object.entries(RANGES).map(([key, r]): [string, string] => [key, r.label])] },
  { key: "name", label: "Name", placeholder: "trace name" },
  { key: "user", label: "User", placeholder: "user id" },
  { key: "session", label: "Session", placeholder: "session id" },
  { key: "tags", label: "Tags", placeholder: "a, b (all of them)" },
  { key: "env", label: "Environment", placeholder: "production, staging" },
  { key: "score", label: "Score", placeholder: "score name" },
  { key: "min", label: "Min", placeholder: "≥", type: "number" },
  { key: "max", label: "Max", placeholder: "≤", type: "number" },
];

export interface TraceQuery {
  name?: string;
  user?: string;
  session?: string;
  tag?: string[];
  environment?: string[];
  from_timestamp?: string;
  score_name?: string;
  score_min?: number;
  score_max?: number;
  page: number;
  limit: number;
}

const list = (text: string | null) =>
  (text ?? "")
    .split(",")
    .map((t) => t.trim())
    .filter(Boolean);

const number = (text: string | null) => (text != null && text.trim() !== "" && Number.isFinite(Number(text)) ? Number(text) : undefined);

/** The api query for the URL's filters, `now` fixing where a relative range starts. */
export function traceQuery(params: URLSearchParams, page: number, limit: number, now: number): TraceQuery {
  const range = RANGES[params.get("range") ?? ""];
  const score = params.get("score") || undefined;
  const tags = list(params.get("tags"));
  const environments = list(params.get("env"));
  return {
    name: params.get("name") || undefined,
    user: params.get("user") || undefined,
    session: params.get("session") || undefined,
    tag: tags.length ? tags : undefined,
    environment: environments.length ? environments : undefined,
    from_timestamp: range ? new Date(now - range.ms).toISOString() : undefined,
    score_name: score,
    score_min: score ? number(params.get("min")) : undefined,
    score_max: score ? number(params.get("max")) : undefined,
    page,
    limit,
  };
}
