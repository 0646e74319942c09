/** The runs compared, as the URL keeps them: ?runs=<uuid>,<uuid>,... (2 to 10). */
export const MAX_RUNS = 10;
const UUID = /^[0-9a-fA-F-]{32,36}$/;

/** The uuids of a ``runs`` parameter: valid ones, each once, in order, at most ``MAX_RUNS``. */
export function parseRuns(value: string | null): string[] {
  const found = (value ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter((s) => UUID.test(s));
  return [...new Set(found)].slice(0, MAX_RUNS);
}

export function formatRuns(uuids: string[]): string {
  return uuids.join(",");
}

/** Names for a legend: a run's name, with the start of its uuid when another run has it too. */
export function runLabels(runs: { uuid: string; name?: string | null }[]): Map<string, string> {
  const count = new Map<string, number>();
  for (const r of runs) count.set(r.name ?? "", (count.get(r.name ?? "") ?? 0) + 1);
  return new Map(
    runs.map((r) => [r.uuid, r.name && count.get(r.name) === 1 ? r.name : `${r.name ?? "run"} ${r.uuid.slice(0, 6)}`]),
  );
}
