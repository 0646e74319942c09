/** A filter form over the query string: applied on submit (a select at once), cleared in one click. */
import type { FormEvent } from "react";

export interface Field {
  key: string;
  label: string;
  placeholder?: string;
  type?: "text" | "number" | "datetime-local";
  /** A select of these `[value, label]` pairs (the first is usually "any"). */
  options?: [string, string][];
}

interface Props {
  label: string;
  fields: Field[];
  params: URLSearchParams;
  onApply: (changes: Record<string, string | undefined>) => void;
}

export function FilterForm({ label, fields, params, onApply }: Props) {
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    onApply(Object.fromEntries(fields.map((f) => [f.key, String(form.get(f.key) ?? "").trim() || undefined])));
  };
  const clear = () => onApply(Object.fromEntries(fields.map((f) => [f.key, undefined])));
  return (
    // Keyed by the query string so a change of URL (back, a link) resets what the fields show.
    <form key={params.toString()} className="toolbar filters" role="search" aria-label={label} onSubmit={submit}>
      {fields.map((field) => (
        <label key={field.key}>
          {field.label}
          {field.options ? (
            <select name={field.key} defaultValue={params.get(field.key) ?? ""} onChange={(e) => e.currentTarget.form?.requestSubmit()}>
              {field.options.map(([value, text]) => (
                <option key={value} value={value}>
                  {text}
                </option>
              ))}
            </select>
          ) : (
            <input
              name={field.key}
              type={field.type ?? "text"}
              step={field.type === "number" ? "any" : undefined}
              defaultValue={params.get(field.key) ?? ""}
              placeholder={field.placeholder}
              className={field.type === "number" ? "narrow" : undefined}
            />
          )}
        </label>
      ))}
      <button type="submit" className="primary">
        Apply
      </button>
      <button type="button" onClick={clear}>
        Clear
      </button>
    </form>
  );
}
