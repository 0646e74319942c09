/** Pieces every page of this area uses: URL filters, a pager, scores, and the SDK hint. */
import { useCallback } from "react";
import { useSearchParams } from "react-router";
import { EmptyState } from "../../components/States";
import "./traces.css";
import { formatNumber } from "../../lib/format";
import { useProject } from "../../lib/params";
import type { PageMeta, ScoreView } from "./types";

/** How often lists poll for new rows while on their first page. */
export const POLL_MS = 3_000;

/** The query string as filters: read one, and change some (which goes back to page 1). */
export function useUrlFilters() {
  const [params, setParams] = useSearchParams();
  const get = useCallback((key: string) => params.get(key) ?? undefined, [params]);
  const update = useCallback(
    (changes: Record<string, string | number | undefined>) =>
      setParams((current) => {
        const next = new URLSearchParams(current);
        if (!("page" in changes)) next.delete("page");
        for (const [key, value] of Object.entries(changes)) {
          if (value === undefined || value === "") next.delete(key);
          else next.set(key, String(value));
        }
        return next;
      }),
    [setParams],
  );
  const page = Math.max(1, Number(params.get("page")) || 1);
  return { params, get, update, page };
}

/** Previous and next page buttons, and where this page is among them. */
export function Pager({ meta, onPage }: { meta: PageMeta; onPage: (page: number) => void }) {
  if (meta.total_pages <= 1) return null;
  return (
    <nav className="pager" aria-label="Pages">
      <button type="button" disabled={meta.page <= 1} onClick={() => onPage(meta.page - 1)}>
        Previous
      </button>
      <span aria-live="polite" data-page={meta.page}>
        Page {meta.page} of {meta.total_pages} · {meta.total_items.toLocaleString()} in all
      </span>
      <button type="button" disabled={meta.page >= meta.total_pages} onClick={() => onPage(meta.page + 1)}>
        Next
      </button>
    </nav>
  );
}

/** A score's value as it reads: a number, true/false, or its label. */
export function scoreValue(score: ScoreView): string {
  if (score.data_type === "BOOLEAN" && score.value != null) return score.value ? "true" : "false";
  if (score.string_value != null && score.data_type !== "NUMERIC") return score.string_value;
  return formatNumber(score.value ?? null);
}

/** Scores as `name value` chips, each with its comment as a tooltip. */
export function ScoreChips({ scores }: { scores: ScoreView[] }) {
  if (scores.length === 0) return <span className="muted">No scores</span>;
  return (
    <ul className="chips" aria-label="Scores">
      {scores.map((s) => (
        <li key={s.id} className="chip" data-score-name={s.name} data-score-value={scoreValue(s)} title={s.comment ?? undefined}>
          <span className="muted">{s.name}</span> {scoreValue(s)}
        </li>
      ))}
    </ul>
  );
}

/** What to run to send a first trace. */
export function NoTracesYet({ title }: { title: string }) {
  const { owner, project } = useProject();
  const command = `eval "$(axonal keys create -p ${owner}/${project} | grep ^export)"\npython examples/langfuse_trace.py`;
  return (
    <EmptyState title={title} command={command}>
      Traces come from the Langfuse SDK, OpenTelemetry or the Axonal SDK (<code>axonal.tracing</code>) with a project API key.
    </EmptyState>
  );
}
