/** Add a run to the comparison by name or uuid, picked from the project's recent runs. */
import { useQuery } from "@tanstack/react-query";
import { type FormEvent, useId, useState } from "react";
import { api, unwrap } from "../../api/client";
import { MAX_RUNS } from "./selection";

interface Props {
  owner: string;
  project: string;
  chosen: string[];
  onAdd: (uuid: string) => void;
}

export function RunPicker({ owner, project, chosen, onAdd }: Props) {
  const list = useId();
  const [text, setText] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const recent = useQuery({
    queryKey: ["runs", owner, project, "recent"],
    queryFn: () => unwrap(api.GET("/api/v1/{owner}/{project}/runs", { params: { path: { owner, project }, query: { limit: 100 } } })),
  });
  const runs = (recent.data?.runs ?? []).filter((r) => !chosen.includes(r.uuid));
  const full = chosen.length >= MAX_RUNS;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const wanted = text.trim();
    const found = runs.find((r) => r.uuid === wanted || r.name === wanted) ?? runs.find((r) => wanted.length >= 4 && r.uuid.startsWith(wanted));
    const uuid = found?.uuid ?? (/^[0-9a-fA-F-]{32,36}$/.test(wanted) ? wanted : null);
    if (!uuid) {
      setProblem(`No recent run is named or numbered "${wanted}".`);
      return;
    }
    setProblem(null);
    setText("");
    onAdd(uuid);
  };
  return (
    <form className="toolbar" onSubmit={submit} aria-label="Add a run">
      <label>
        Add a run
        <input
          list={list}
          value={text}
          onChange={(e) => setText(e.target.value)}
          placeholder="name or uuid"
          aria-label="Run to add"
          disabled={full}
        />
      </label>
      <datalist id={list}>
        {runs.map((r) => (
          <option key={r.uuid} value={r.uuid}>
            {r.name ?? r.uuid} · {r.status}
          </option>
        ))}
      </datalist>
      <button type="submit" disabled={full || !text.trim()}>
        Add
      </button>
      {full && <span className="muted">At most {MAX_RUNS} runs.</span>}
      {problem && (
        <span className="error" role="alert">
          {problem}
        </span>
      )}
    </form>
  );
}
