/** An adaptive sweep's study as the UI reads it: whether a sweep has one, how often to read it,
 * its best-so-far series, its params' importances in order, and a colour per objective value. */
import { ApiError, api, unwrap } from "../../api/client";
import type { components } from "../../api/schema";
import { isFinal } from "../../lib/runStatus";

type StudyBody = components["schemas"]["StudyView"];
export type StudyTrial = components["schemas"]["StudyTrial"];
type Direction = NonNullable<StudyBody["direction"]>;
type Importances = Record<string, number>;
/** A study with the fields the api may leave out filled in with their defaults. */
export type Study = StudyBody & { direction: Direction; importances: Importances; approximations: string[] };

/** How often a study is read while its search runs, in ms. */
export const STUDY_POLL_MS = 2_000;

/** The study of sweep ``uuid``; ``null`` when it has none (404: a grid, random or mapping matrix). */
export function studyQuery(owner: string, project: string, uuid: string) {
  return {
    queryKey: ["study", owner, project, uuid],
    queryFn: async (): Promise<Study | null> => {
      try {
        const body = await unwrap(api.GET("/api/v1/{owner}/{project}/runs/{run_uuid}/study", { params: { path: { owner, project, run_uuid: uuid } } }));
        return { ...body, direction: body.direction ?? "minimize", importances: body.importances ?? {}, approximations: body.approximations ?? [] };
      } catch (error) {
        if (error instanceof ApiError && error.status === 404) return null;
        throw error;
      }
    },
  };
}

/** Whether a compiled operation is an adaptive search (its matrix gives a search space). */
export function searchesAdaptively(compiled: Record<string, unknown> | null | undefined): boolean {
  const matrix = compiled?.matrix;
  return typeof matrix === "object" && matrix !== null && (matrix as { search_space?: unknown }).search_space != null;
}

/** TanStack Query's ``refetchInterval`` for a study: while its search runs, and, for an
 * adaptive sweep still live, while the optimization service has not started its study yet. */
export function studyPoll(study: Study | null | undefined, adaptive: boolean, sweepStatus: string | undefined): number | false {
  if (study?.state === "running") return STUDY_POLL_MS;
  return study === null && adaptive && !isFinal(sweepStatus) ? STUDY_POLL_MS : false;
}

/** The complete trials with a finite value, by number. */
export function scored(trials: StudyTrial[]): (StudyTrial & { value: number })[] {
  return trials
    .filter((t): t is StudyTrial & { value: number } => t.state === "complete" && typeof t.value === "number" && Number.isFinite(t.value))
    .sort((a, b) => a.number - b.number);
}

/** The best value so far after each complete trial, in trial order (``direction`` decides). */
export function bestSoFar(trials: StudyTrial[], direction: Direction): { number: number; value: number }[] {
  const better = direction === "maximize" ? Math.max : Math.min;
  let best = NaN;
  return scored(trials).map((t) => {
    best = Number.isNaN(best) ? t.value : better(best, t.value);
    return { number: t.number, value: best };
  });
}

/** The params by importance, largest first (ties by name), each with its share as a percentage. */
export function importanceRows(importances: Importances): { param: string; share: number; percent: string }[] {
  return Object.entries(importances)
    .sort(([a, x], [b, y]) => y - x || a.localeCompare(b))
    .map(([param, share]) => ({ param, share, percent: `${(share * 100).toFixed(1)}%` }));
}

/** The params of the trials, the most important first, then the others by name. */
export function paramOrder(trials: StudyTrial[], importances: Importances): string[] {
  const names = [...new Set(trials.flatMap((t) => Object.keys(t.params)))];
  const share = (name: string) => importances[name] ?? -1;
  return names.sort((a, b) => share(b) - share(a) || a.localeCompare(b));
}

/** How many trials have ended and how many run, against the budget: ``4 / 6 trials, 2 running``. */
export function progressOf(study: Pick<Study, "trials" | "budget">): string {
  const running = study.trials.filter((t) => t.state === "running").length;
  const ended = study.trials.length - running;
  const of = study.budget == null ? `${ended} trials` : `${ended} / ${study.budget} trials`;
  return running ? `${of}, ${running} running` : of;
}

const WORSE: [number, number, number] = [232, 89, 12];
const BETTER: [number, number, number] = [59, 91, 219];

/** A line's colour for an objective value at ``position`` (0 to 1, low to high) on its axis:
 * orange for the worse end, blue for the better one. */
export function colourOf(position: number, direction: Direction): string {
  const t = Math.min(1, Math.max(0, direction === "maximize" ? position : 1 - position));
  const [r, g, b] = WORSE.map((w, i) => Math.round(w + (BETTER[i] - w) * t));
  return `rgb(${r}, ${g}, ${b})`;
}
