/** The filters of the runs list; applying them rewrites the URL's query string. */
import { type FormEvent, useState } from "react";
import { RUN_KINDS, RUN_STATUSES, type RunFilters } from "./filters";
import type { RunStatus } from "./statuses";

interface Props {
  value: RunFilters;
  onApply: (filters: RunFilters) => void;
}

export function RunFiltersForm({ value, onApply }: Props) {
  const [draft, setDraft] = useState({ ...value, tagText: value.tags.join(", ") });
  const set = (patch: Partial<typeof draft>) => setDraft((d) => ({ ...d, ...patch }));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const { tagText, ...rest } = draft;
    const tags = tagText.split(",").map((t) => t.trim()).filter(Boolean);
    onApply({ ...rest, tags, page: 1 });
  };
  const clear = () => {
    setDraft({ tags: [], tagText: "", page: 1 });
    onApply({ tags: [], page: 1 });
  };
  return (
    <form className="filters" role="search" aria-label="Filter runs" onSubmit={submit}>
      <label>
        Status
        <select value={draft.status ?? ""} onChange={(e) => set({ status: (e.target.value || undefined) as RunStatus | undefined })}>
          <option value="">any</option>
          {RUN_STATUSES.map((s) => (
            <option key={s} value={s}>
              {s.replace(/_/g, " ")}
            </option>
          ))}
        </select>
      </label>
      <label>
        Kind
        <select value={draft.kind ?? ""} onChange={(e) => set({ kind: e.target.value || undefined })}>
          <option value="">any</option>
          {RUN_KINDS.map((k) => (
            <option key={k} value={k}>
              {k}
            </option>
          ))}
        </select>
      </label>
      <label>
        Name
        <input type="search" value={draft.name ?? ""} placeholder="part of the name" onChange={(e) => set({ name: e.target.value })} />
      </label>
      <label>
        Tags
        <input value={draft.tagText} placeholder="cv, gpu (all of them)" onChange={(e) => set({ tagText: e.target.value })} />
      </label>
      <label>
        Created after
        <input type="datetime-local" value={draft.createdAfter ?? ""} onChange={(e) => set({ createdAfter: e.target.value || undefined })} />
      </label>
      <label>
        Created before
        <input type="datetime-local" value={draft.createdBefore ?? ""} onChange={(e) => set({ createdBefore: e.target.value || undefined })} />
      </label>
      <div className="filter-actions">
        <button type="submit" className="primary">
          Apply
        </button>
        <button type="button" onClick={clear}>
          Clear
        </button>
      </div>
    </form>
  );
}
