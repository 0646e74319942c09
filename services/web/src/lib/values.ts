/** Reading a form's values as the api's body fields; a value that cannot be read is a FieldError. */
import { FieldError, type FormValues } from "../components/Form";

/** The trimmed text, or undefined when empty. */
export function optional(values: FormValues, name: string): string | undefined {
  const value = values[name];
  return typeof value === "string" && value.trim() ? value.trim() : undefined;
}

/** The trimmed text ("" when empty; the api says when it is required). */
export function text(values: FormValues, name: string): string {
  return optional(values, name) ?? "";
}

export function flag(values: FormValues, name: string): boolean {
  return values[name] === true;
}

/** Items separated by commas or new lines. */
export function list(values: FormValues, name: string): string[] {
  return text(values, name)
    .split(/[,\n]/)
    .map((item) => item.trim())
    .filter(Boolean);
}

export function number(values: FormValues, name: string): number | undefined {
  const raw = optional(values, name);
  if (raw === undefined) return undefined;
  const value = Number(raw);
  if (!Number.isFinite(value)) throw new FieldError(name, `${raw} is not a number`);
  return value;
}

/** A whole number, or null when empty (the api's "unset"). */
export function integer(values: FormValues, name: string): number | null {
  const value = number(values, name);
  if (value === undefined) return null;
  if (!Number.isInteger(value)) throw new FieldError(name, `${value} is not a whole number`);
  return value;
}

/** A JSON array typed into a text area ([] when empty). */
export function jsonList(values: FormValues, name: string): unknown[] {
  const raw = optional(values, name);
  if (raw === undefined) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch (cause) {
    throw new FieldError(name, `not valid JSON (${cause instanceof Error ? cause.message : String(cause)})`);
  }
  if (!Array.isArray(parsed)) throw new FieldError(name, "must be a JSON list: [{...}, ...]");
  return parsed;
}

/** `key = value` lines as an object; a value that reads as JSON (3, true, "x") is that value. */
export function pairs(values: FormValues, name: string): Record<string, unknown> {
  const entries = text(values, name)
    .split("\n")
    .map((line) => line.trim())
    .filter(Boolean)
    .map((line) => {
      const at = line.indexOf("=");
      if (at < 1) throw new FieldError(name, `"${line}" is not key = value`);
      return [line.slice(0, at).trim(), jsonOrText(line.slice(at + 1).trim())] as const;
    });
  return Object.fromEntries(entries);
}

function jsonOrText(value: string): unknown {
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}

/** `key = value` lines as an object of strings. */
export function textPairs(values: FormValues, name: string): Record<string, string> {
  return Object.fromEntries(Object.entries(pairs(values, name)).map(([key, value]) => [key, typeof value === "string" ? value : JSON.stringify(value)]));
}

/** A local date and time from a datetime-local input, as an ISO instant. */
export function instant(values: FormValues, name: string): string | undefined {
  const raw = optional(values, name);
  if (raw === undefined) return undefined;
  const date = new Date(raw);
  if (Number.isNaN(date.getTime())) throw new FieldError(name, `${raw} is not a date and time`);
  return date.toISOString();
}

/** The text as typed, spaces kept (a password), or undefined when empty. */
export function secret(values: FormValues, name: string): string | undefined {
  const value = values[name];
  return typeof value === "string" && value ? value : undefined;
}
