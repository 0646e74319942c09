/** What the annotation queue pages share: the api's shapes and a score's value from a form. */
import type { components } from "../../api/schema";

type Schemas = components["schemas"];
export type AnnotationQueue = Schemas["AnnotationQueue"];
export type QueueItem = Schemas["QueueItem"];
export type ScoreConfig = Schemas["ScoreConfig"];
export type AnnotationScore = Schemas["AnnotationScore"];

/** The value a reviewer entered for `config`, as the api takes it; null when left empty. */
export function scoreValue(config: ScoreConfig, entered: string): number | string | null {
  if (entered === "") return null;
  if (config.data_type === "NUMERIC" || config.data_type === "BOOLEAN") return Number(entered);
  return entered;
}

/** The scores of a completion: one per config given a value, with the comment. */
export function completionScores(configs: ScoreConfig[], entered: Record<string, string>, comment: string): AnnotationScore[] {
  return configs.flatMap((config) => {
    const value = scoreValue(config, entered[config.id] ?? "");
    return value === null ? [] : [{ config_id: config.id, value, comment: comment || null }];
  });
}
