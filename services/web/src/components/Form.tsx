/**
 * A form of labelled inputs bound to a TanStack Query mutation: submit is disabled while the
 * mutation runs, and the api's refusal is shown where it belongs — each of its `details`
 * next to the field it names (`body.url` → the `url` field), the rest above the buttons.
 */
import type { UseMutationResult } from "@tanstack/react-query";
import { type FormEvent, type ReactNode, useId, useState } from "react";
import { ApiError } from "../api/client";

export type FormValues = Record<string, string | boolean>;

export interface FieldSpec {
  /** The body field it fills; dotted for nested ones (`smtp.host`), as the api names them. */
  name: string;
  label: string;
  kind?: "text" | "number" | "textarea" | "select" | "checkbox" | "datetime-local" | "password";
  options?: readonly string[];
  required?: boolean;
  placeholder?: string;
  /** What the browser may fill in (`username`, `current-password`, `new-password`). */
  autoComplete?: string;
  hint?: ReactNode;
  initial?: string | boolean;
  /** Shown only when this holds for the current values (fields that depend on a choice). */
  when?: (values: FormValues) => boolean;
}

/** A value the form cannot send, found before sending: shown next to `field`. */
export class FieldError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
    this.name = "FieldError";
  }
}

export interface Problems {
  message: string | null;
  fields: Record<string, string[]>;
  other: string[];
}

/** Where each problem of a failed submission goes: next to a field, or in the form's alert. */
export function problemsOf(error: unknown, fieldNames: string[]): Problems {
  const problems: Problems = { message: null, fields: {}, other: [] };
  if (error == null) return problems;
  if (error instanceof FieldError) {
    problems.fields[error.field] = [error.message];
    return problems;
  }
  problems.message = error instanceof Error ? error.message : String(error);
  if (!(error instanceof ApiError)) return problems;
  for (const detail of error.details) {
    const path = detail.location.replace(/^body\.?/, "");
    const field = fieldNames
      .filter((name) => path === name || path.startsWith(`${name}.`))
      .sort((a, b) => b.length - a.length)[0];
    const text = detail.message.replace(/^Value error, /, "");
    if (field) (problems.fields[field] ??= []).push(text);
    else problems.other.push(path ? `${path}: ${text}` : text);
  }
  return problems;
}

function initialValues(fields: FieldSpec[]): FormValues {
  return Object.fromEntries(fields.map((f) => [f.name, f.initial ?? (f.kind === "checkbox" ? false : "")]));
}

interface Props<T> {
  /** The form's accessible name, also its submit button's label. */
  label: string;
  fields: FieldSpec[];
  mutation: UseMutationResult<T, Error, FormValues>;
}

export function Form<T>({ label, fields, mutation }: Props<T>) {
  const id = useId();
  const [values, setValues] = useState<FormValues>(() => initialValues(fields));
  const shown = fields.filter((f) => !f.when || f.when(values));
  const problems = problemsOf(mutation.error, shown.map((f) => f.name));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const sent = Object.fromEntries(shown.map((f) => [f.name, values[f.name]]));
    mutation.mutate(sent, { onSuccess: () => setValues(initialValues(fields)) });
  };
  const set = (name: string, value: string | boolean) => setValues((old) => ({ ...old, [name]: value }));
  return (
    <form className="form" aria-label={label} onSubmit={submit} noValidate>
      {shown.map((field) => (
        <Field
          key={field.name}
          id={`${id}-${field.name}`}
          field={field}
          value={values[field.name]}
          errors={problems.fields[field.name] ?? []}
          onChange={(value) => set(field.name, value)}
        />
      ))}
      {problems.message && (
        <div className="error form-error" role="alert">
          <p>{problems.message}</p>
          {problems.other.length > 0 && (
            <ul>
              {problems.other.map((text) => (
                <li key={text}>{text}</li>
              ))}
            </ul>
          )}
        </div>
      )}
      <div className="actions">
        <button type="submit" className="primary" disabled={mutation.isPending}>
          {mutation.isPending ? "Working…" : label}
        </button>
      </div>
    </form>
  );
}

interface FieldProps {
  id: string;
  field: FieldSpec;
  value: string | boolean;
  errors: string[];
  onChange: (value: string | boolean) => void;
}

function Field({ id, field, value, errors, onChange }: FieldProps) {
  const described = [errors.length ? `${id}-error` : "", field.hint ? `${id}-hint` : ""].filter(Boolean).join(" ");
  const common = {
    id,
    name: field.name,
    required: field.required,
    autoComplete: field.autoComplete,
    "aria-invalid": errors.length > 0 || undefined,
    "aria-describedby": described || undefined,
  };
  const text = typeof value === "string" ? value : "";
  const input =
    field.kind === "checkbox" ? (
      <input {...common} type="checkbox" checked={value === true} onChange={(e) => onChange(e.target.checked)} />
    ) : field.kind === "select" ? (
      <select {...common} value={text} onChange={(e) => onChange(e.target.value)}>
        {field.placeholder !== undefined && <option value="">{field.placeholder}</option>}
        {(field.options ?? []).map((option) => (
          <option key={option} value={option}>
            {option}
          </option>
        ))}
      </select>
    ) : field.kind === "textarea" ? (
      <textarea {...common} value={text} placeholder={field.placeholder} rows={4} onChange={(e) => onChange(e.target.value)} />
    ) : (
      <input
        {...common}
        type={field.kind ?? "text"}
        step={field.kind === "number" ? "any" : undefined}
        value={text}
        placeholder={field.placeholder}
        onChange={(e) => onChange(e.target.value)}
      />
    );
  return (
    <div className={`field${field.kind === "checkbox" ? " check" : ""}`} data-field={field.name}>
      <label htmlFor={id}>
        {field.label}
        {field.required && <span aria-hidden="true"> *</span>}
      </label>
      {input}
      {field.hint && (
        <small id={`${id}-hint`} className="muted">
          {field.hint}
        </small>
      )}
      {errors.length > 0 && (
        <small id={`${id}-error`} className="error field-error">
          {errors.join("; ")}
        </small>
      )}
    </div>
  );
}
