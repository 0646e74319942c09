/**
 * A project's data settings: how long each kind of data is kept, its quotas, and deleting it.
 * Viewers read them; admins save them (the api's refusal is shown in the form); owners delete.
 */
import { type QueryKey, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, type ReactNode, useState } from "react";
import { useNavigate } from "react-router";
import { api, unwrap } from "../../api/client";
import type { components } from "../../api/schema";
import { type FieldSpec, Form, type FormValues } from "../../components/Form";
import { ErrorView, Loading } from "../../components/States";
import { formatBytes, formatTime } from "../../lib/format";
import { useProject } from "../../lib/params";
import { integer } from "../../lib/values";
import { projectPath } from "../events/shared";

type Retention = components["schemas"]["ProjectRetention"];
type RetentionPolicy = components["schemas"]["RetentionPolicy"];
type Quotas = components["schemas"]["ProjectQuotas"];
type QuotaLimits = components["schemas"]["QuotaLimits"];

const KINDS = ["traces", "observations", "scores", "metrics", "logs", "artifacts"] as const satisfies readonly (keyof RetentionPolicy)[];

const LIMITS: { name: keyof QuotaLimits; label: string; hint: string }[] = [
  { name: "concurrent_runs", label: "Concurrent runs", hint: "Runs active at once; the others wait queued." },
  { name: "spans_per_second", label: "Spans per second", hint: "Trace spans and observations ingested; over it, clients get 429." },
  { name: "points_per_second", label: "Points per second", hint: "Metric points ingested; over it, clients get 429." },
  { name: "storage_bytes", label: "Storage (bytes)", hint: "Artifacts stored; an upload over it gets 413." },
];

const keys = {
  retention: (owner: string, project: string) => ["retention", owner, project] as const,
  quotas: (owner: string, project: string) => ["quotas", owner, project] as const,
};

const shown = (value: number | null | undefined) => (value == null ? "" : String(value));

/** The retention the api keeps, in words. */
export function retentionSaved(policy: RetentionPolicy): string {
  const kept = KINDS.filter((kind) => policy[kind] != null).map((kind) => `${kind} ${policy[kind]} days`);
  return kept.length ? `${kept.join(", ")}; ${kept.length < KINDS.length ? "the rest kept for ever" : "nothing kept for ever"}` : "everything kept for ever";
}

/** The quotas the api keeps, in words. */
export function quotasSaved(limits: QuotaLimits): string {
  const set = LIMITS.filter(({ name }) => limits[name] != null).map(({ name, label }) => {
    const value = limits[name] as number;
    return name === "storage_bytes" ? `storage ${formatBytes(value)}` : `${label.toLowerCase()} ${value.toLocaleString()}`;
  });
  return set.length ? `${set.join(", ")}; ${set.length < LIMITS.length ? "the platform's default for the rest" : "no default left"}` : "the platform's defaults";
}

interface SettingProps<T> {
  title: string;
  /** The form's name and its button's label. */
  label: string;
  intro: ReactNode;
  queryKey: QueryKey;
  read: () => Promise<T>;
  fields: (current: T) => FieldSpec[];
  save: (values: FormValues) => Promise<T>;
  saved: (current: T) => string;
  updatedAt: (current: T) => string | null | undefined;
}

/** A setting read from the api and saved with a PUT; what the api answered is shown after. */
function Setting<T>({ title, label, intro, queryKey, read, fields, save, saved, updatedAt }: SettingProps<T>) {
  const client = useQueryClient();
  const current = useQuery({ queryKey, queryFn: read });
  const [notice, setNotice] = useState<string | null>(null);
  const mutation = useMutation({
    mutationFn: save,
    onSuccess: (value) => {
      client.setQueryData(queryKey, value);
      setNotice(`Saved: ${saved(value)}.`);
    },
  });
  const id = `${String(queryKey[0])}-title`;
  return (
    <section aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      <p className="muted">{intro}</p>
      {current.isPending ? (
        <Loading what={`Loading ${title.toLowerCase()}`} />
      ) : current.isError ? (
        <ErrorView error={current.error} retry={() => void current.refetch()} />
      ) : (
        <>
          <p className="muted" data-current={saved(current.data)}>
            Now: {saved(current.data)}
            {updatedAt(current.data) && ` (since ${formatTime(updatedAt(current.data))})`}.
          </p>
          {/* Keyed by what the api holds, so a save shows the saved values. */}
          <Form key={JSON.stringify(current.data)} label={label} fields={fields(current.data)} mutation={mutation} />
          <p className="notice" role="status">
            {notice}
          </p>
        </>
      )}
    </section>
  );
}

/** Deleting the project, once its name is typed; then back to the projects. */
function DeleteProject({ owner, project }: { owner: string; project: string }) {
  const [typed, setTyped] = useState("");
  const client = useQueryClient();
  const navigate = useNavigate();
  const remove = useMutation({
    mutationFn: () => unwrap(api.DELETE("/api/v1/projects/{owner}/{project}", projectPath(owner, project))),
    onSuccess: async () => {
      await client.invalidateQueries({ queryKey: ["projects"] });
      await navigate("/");
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (typed === project) remove.mutate();
  };
  return (
    <section className="danger-zone" aria-labelledby="delete-title">
      <h2 id="delete-title">Delete project</h2>
      <p>
        {owner}/{project} goes at once: every service then deletes its runs, traces, metrics, artifacts and the rest. This cannot be undone. Owners only.
      </p>
      <form className="form" aria-label="Delete project" onSubmit={submit}>
        <div className="field">
          <label htmlFor="delete-confirm">
            Type <strong>{project}</strong> to confirm
          </label>
          <input id="delete-confirm" value={typed} autoComplete="off" onChange={(e) => setTyped(e.target.value)} />
        </div>
        {remove.error && (
          <div className="error form-error" role="alert">
            <p>{remove.error.message}</p>
          </div>
        )}
        <div className="actions">
          <button type="submit" className="danger" disabled={typed !== project || remove.isPending}>
            {remove.isPending ? "Deleting…" : "Delete project"}
          </button>
        </div>
      </form>
    </section>
  );
}

export default function DataPage() {
  const { owner, project } = useProject();
  const path = projectPath(owner, project);
  return (
    <section>
      <h1>Data</h1>
      <Setting<Retention>
        title="Retention"
        label="Save retention"
        intro="Days each kind of data is kept; empty: kept for ever. The services holding the data apply it on their next pass."
        queryKey={keys.retention(owner, project)}
        read={() => unwrap(api.GET("/api/v1/projects/{owner}/{project}/retention", path))}
        fields={({ retention }) =>
          KINDS.map((kind) => ({ name: kind, label: `${kind[0].toUpperCase()}${kind.slice(1)} (days)`, kind: "number", placeholder: "for ever", initial: shown(retention[kind]) }))
        }
        save={(values) =>
          unwrap(api.PUT("/api/v1/projects/{owner}/{project}/retention", { ...path, body: Object.fromEntries(KINDS.map((kind) => [kind, integer(values, kind)])) }))
        }
        saved={({ retention }) => retentionSaved(retention)}
        updatedAt={(r) => r.updated_at}
      />
      <Setting<Quotas>
        title="Quotas"
        label="Save quotas"
        intro="The project's limits; empty: the platform's default."
        queryKey={keys.quotas(owner, project)}
        read={() => unwrap(api.GET("/api/v1/projects/{owner}/{project}/quotas", path))}
        fields={({ quotas }) => LIMITS.map(({ name, label, hint }) => ({ name, label, hint, kind: "number", placeholder: "default", initial: shown(quotas[name]) }))}
        save={(values) =>
          unwrap(api.PUT("/api/v1/projects/{owner}/{project}/quotas", { ...path, body: Object.fromEntries(LIMITS.map(({ name }) => [name, integer(values, name)])) }))
        }
        saved={({ quotas }) => quotasSaved(quotas)}
        updatedAt={(q) => q.updated_at}
      />
      <DeleteProject owner={owner} project={project} />
    </section>
  );
}
