/** Scores, newest first, filtered by name, source and data type from the URL. */
import { Link } from "react-router";
import { api, unwrap } from "../../api/client";
import type { Column } from "../../components/VirtualTable";
import { formatTime } from "../../lib/format";
import type { Field } from "./FilterForm";
import { FilteredList } from "./FilteredList";
import { NoTracesYet, scoreValue } from "./shared";
import type { ScoreDataType, ScoreSource, ScoreView } from "./types";

const SOURCES: ScoreSource[] = ["API", "EVAL", "ANNOTATION"];
const DATA_TYPES: ScoreDataType[] = ["NUMERIC", "BOOLEAN", "CATEGORICAL", "TEXT"];

const FILTERS: Field[] = [
  { key: "name", label: "Name", placeholder: "score name" },
  { key: "source", label: "Source", options: [["", "Any"], ...SOURCES.map((s): [string, string] => [s, s])] },
  { key: "type", label: "Data type", options: [["", "Any"], ...DATA_TYPES.map((d): [string, string] => [d, d])] },
  { key: "trace", label: "Trace", placeholder: "trace id" },
];

const oneOf = <T extends string>(values: readonly T[], value: string | undefined): T[] | undefined =>
  value && (values as readonly string[]).includes(value) ? [value as T] : undefined;

function columns(base: string): Column<ScoreView>[] {
  const trace = (s: ScoreView) => `${base}/traces/${encodeURIComponent(s.trace_id ?? "")}`;
  return [
    { key: "time", header: "Time", width: "170px", cell: (s) => formatTime(s.timestamp) },
    { key: "name", header: "Name", cell: (s) => <span data-score-name={s.name}>{s.name}</span> },
    { key: "value", header: "Value", width: "110px", align: "right", cell: (s) => <span data-score-value={scoreValue(s)}>{scoreValue(s)}</span> },
    { key: "type", header: "Data type", width: "110px", cell: (s) => s.data_type },
    { key: "source", header: "Source", width: "100px", cell: (s) => s.source },
    { key: "trace", header: "Trace", cell: (s) => (s.trace_id ? <Link to={trace(s)}>{s.trace_id}</Link> : <span className="muted">–</span>) },
    {
      key: "observation",
      header: "Observation",
      cell: (s) =>
        s.trace_id && s.observation_id ? (
          <Link to={`${trace(s)}?${new URLSearchParams({ observation: s.observation_id })}`}>{s.observation_id}</Link>
        ) : (
          <span className="muted">–</span>
        ),
    },
    { key: "comment", header: "Comment", width: "2fr", cell: (s) => <span title={s.comment ?? undefined}>{s.comment || <span className="muted">–</span>}</span> },
  ];
}

/** The api's query for the URL's filters. */
function scoreQuery(params: URLSearchParams, page: number) {
  const get = (key: string) => params.get(key) ?? undefined;
  const name = get("name");
  const trace = get("trace");
  return {
    name: name ? [name] : undefined,
    source: oneOf(SOURCES, get("source")),
    data_type: oneOf(DATA_TYPES, get("type")),
    trace_id: trace ? [trace] : undefined,
    page,
    limit: 50,
  };
}

export default function ScoresPage() {
  return (
    <FilteredList
      name="scores"
      title="Scores"
      filters={FILTERS}
      read={({ owner, project, params, page }) =>
        unwrap(api.GET("/api/v1/{owner}/{project}/scores", { params: { path: { owner, project }, query: scoreQuery(params, page) } }))
      }
      columns={columns}
      rowKey={(s) => s.id}
      noMatch="No score matches these filters."
      empty={<NoTracesYet title="No scores yet: score traces with langfuse.create_score(...) or tracing.score_current_trace(...)" />}
    />
  );
}
