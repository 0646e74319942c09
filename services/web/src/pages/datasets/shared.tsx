/** What the dataset pages share: the api's shapes, a value in one short line, paths. */
import type { components } from "../../api/schema";
import "./datasets.css";

type Schemas = components["schemas"];
export type Dataset = Schemas["Dataset"];
export type DatasetItem = Schemas["DatasetItem"];
export type DatasetRun = Schemas["DatasetRun"];
export type ExperimentComparison = Schemas["ExperimentComparison"];
export type ComparisonCell = Schemas["ComparisonCell"];

/** A JSON value as one line, cut at `width` characters. */
export function short(value: unknown, width = 80): string {
  if (value === null || value === undefined) return "";
  const text = typeof value === "string" ? value : JSON.stringify(value);
  return text.length <= width ? text : `${text.slice(0, width - 1)}…`;
}

/** A dataset's name in a page path: each folder encoded, the slashes kept. */
export function datasetPath(name: string): string {
  return name.split("/").map(encodeURIComponent).join("/");
}

/** The comparison page of these runs of a dataset. */
export function comparePath(base: string, dataset: string, runs: string[]): string {
  const query = new URLSearchParams([["dataset", dataset], ...runs.map((r) => ["run", r])]);
  return `${base}/experiments/compare?${query.toString()}`;
}
