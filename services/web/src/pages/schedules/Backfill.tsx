/** A backfill: the runs of a past window's slots, each created once; says how many were new. */
import { type FormEvent, useState } from "react";
import { useProject } from "../../lib/params";
import type { ScheduleInfo } from "./describe";
import { useScheduleActions } from "./queries";

const iso = (local: string) => new Date(local).toISOString();

export function Backfill({ schedule }: { schedule: ScheduleInfo }) {
  const { owner, project } = useProject();
  const { backfill } = useScheduleActions(owner, project, schedule.run_uuid);
  const [start, setStart] = useState("");
  const [end, setEnd] = useState("");
  const submit = (event: FormEvent) => {
    event.preventDefault();
    backfill.mutate({ start: iso(start), end: iso(end) });
  };
  const result = backfill.data;
  return (
    <form className="backfill" aria-label={`Backfill ${schedule.name ?? schedule.run_uuid}`} onSubmit={submit}>
      <label>
        From
        <input type="datetime-local" step={1} required value={start} onChange={(e) => setStart(e.target.value)} />
      </label>
      <label>
        To
        <input type="datetime-local" step={1} required value={end} onChange={(e) => setEnd(e.target.value)} />
      </label>
      <button type="submit" disabled={!start || !end || backfill.isPending}>
        {backfill.isPending ? "Working…" : "Backfill"}
      </button>
      <span role="status" aria-live="polite" className="notice" data-created={result?.created}>
        {result && `Created ${result.created} run${result.created === 1 ? "" : "s"} (${result.run_uuids.length} slot${result.run_uuids.length === 1 ? "" : "s"} in the window).`}
      </span>
      {backfill.isError && (
        <span className="error" role="alert">
          {backfill.error.message}
        </span>
      )}
    </form>
  );
}
