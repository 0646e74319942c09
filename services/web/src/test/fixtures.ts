/** Api bodies for tests, typed by the generated schema so a shape drift fails the type check. */
import type { components } from "../api/schema";

export type RunInfo = components["schemas"]["RunInfo"];
export type SeriesList = components["schemas"]["SeriesList"];
export type MetricSeries = components["schemas"]["MetricSeries"];
export type RunList = components["schemas"]["RunList"];
export type RunComparison = components["schemas"]["RunComparison"];
export type ComparedRun = components["schemas"]["ComparedRun"];
export type StudyView = components["schemas"]["StudyView"];

export const UUID_A = "a".repeat(32);
export const UUID_B = "b".repeat(32);

export function aRun(fields: Partial<RunInfo> = {}): RunInfo {
  return {
    uuid: UUID_A,
    owner: "acme",
    project: "demo",
    kind: "job",
    status: "succeeded",
    created_at: "2026-01-01T00:00:00Z",
    started_at: "2026-01-01T00:00:00Z",
    name: "train",
    attempt: 1,
    children: 0,
    is_approved: true,
    managed: true,
    inputs: {},
    outputs: {},
    ...fields,
  };
}

/** A series of ``steps`` steps (value = step / 10) as the api returns it, NaN at ``nanAt``. */
export function aSeries(name: string, steps: number, fields: Partial<MetricSeries> = {}, nanAt: number[] = []): MetricSeries {
  return {
    run_uuid: UUID_A,
    name,
    total: steps,
    points: Array.from({ length: steps }, (_, step) => {
      const value = nanAt.includes(step) ? ("NaN" as const) : step / 10;
      return { step, value, min: value, max: value, nans: nanAt.includes(step) ? 1 : 0, at: new Date(Date.UTC(2026, 0, 1, 0, 0, step)).toISOString() };
    }),
    ...fields,
  };
}

export function aComparedRun(fields: Partial<ComparedRun> = {}): ComparedRun {
  return {
    uuid: UUID_A,
    name: "train",
    status: "succeeded",
    created_at: "2026-01-01T00:00:00Z",
    finished_at: "2026-01-01T00:01:15Z",
    inputs: {},
    outputs: {},
    metrics: {},
    ...fields,
  };
}
