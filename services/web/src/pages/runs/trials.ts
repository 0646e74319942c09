/** A sweep's trials as rows: the params they vary, their objective, the best one, an order. */
import { toNumber, type WireValue } from "../../lib/series";

export type Direction = "maximize" | "minimize";

export interface Trial {
  uuid: string;
  name: string;
  status: string;
  params: Record<string, unknown>;
  /** The objective metric's last value; NaN when not logged or not finite. */
  objective: number;
}

/** The params the trials vary (all of them when fewer than two trials), sorted. */
export function sweptParams(inputs: Record<string, unknown>[]): string[] {
  const names = [...new Set(inputs.flatMap((i) => Object.keys(i)))].sort();
  if (inputs.length < 2) return names;
  return names.filter((n) => new Set(inputs.map((i) => JSON.stringify(i[n]))).size > 1);
}

/** A last metric value as the objective: finite numbers only. */
export function objectiveOf(value: WireValue | undefined): number {
  if (value === undefined) return NaN;
  const n = toNumber(value);
  return Number.isFinite(n) ? n : NaN;
}

/** The trial with the best finite objective in ``direction``, ``null`` when none has one. */
export function bestTrial(trials: Trial[], direction: Direction): Trial | null {
  let best: Trial | null = null;
  for (const t of trials) {
    if (Number.isNaN(t.objective)) continue;
    if (!best || (direction === "maximize" ? t.objective > best.objective : t.objective < best.objective)) best = t;
  }
  return best;
}

/** A column to sort by: ``objective``, ``name``, ``status`` or ``param:<name>``. */
export type SortKey = string;

function valueOf(t: Trial, key: SortKey): unknown {
  if (key === "objective") return Number.isNaN(t.objective) ? undefined : t.objective;
  if (key.startsWith("param:")) return t.params[key.slice(6)];
  return key === "status" ? t.status : t.name;
}

/** The trials ordered by ``key``; trials without a value for it come last either way. */
export function sortTrials(trials: Trial[], key: SortKey, descending: boolean): Trial[] {
  const sign = descending ? -1 : 1;
  return [...trials].sort((a, b) => {
    const x = valueOf(a, key);
    const y = valueOf(b, key);
    if (x == null || y == null) return x == null ? (y == null ? 0 : 1) : -1;
    if (typeof x === "number" && typeof y === "number") return sign * (x - y);
    return sign * String(x).localeCompare(String(y), undefined, { numeric: true });
  });
}

/** Where a value sits on an axis of these values, 0 to 1: numbers by value, others by their
 * order among the distinct values (a categorical axis). */
export function axisOf(values: unknown[]): { position: (v: unknown) => number; ticks: { at: number; label: string }[] } {
  const numbers = values.filter((v): v is number => typeof v === "number" && Number.isFinite(v));
  if (numbers.length === values.length && numbers.length > 0) {
    const lo = Math.min(...numbers);
    const hi = Math.max(...numbers);
    const span = hi - lo || 1;
    const position = (v: unknown) => (hi === lo ? 0.5 : ((v as number) - lo) / span);
    return { position, ticks: [...new Set([lo, hi])].map((v) => ({ at: position(v), label: String(Number(v.toPrecision(4))) })) };
  }
  const key = (v: unknown) => (v === undefined ? "–" : JSON.stringify(v));
  const keys = [...new Set(values.map(key))].sort();
  const at = (k: string) => (keys.length < 2 ? 0.5 : keys.indexOf(k) / (keys.length - 1));
  return { position: (v) => at(key(v)), ticks: keys.map((k) => ({ at: at(k), label: k.replace(/^"|"$/g, "") })) };
}
