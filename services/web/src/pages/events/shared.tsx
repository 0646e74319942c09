/** Pieces every events page uses: create and delete with invalidation, filters, enabled state. */
import { type QueryKey, useMutation, useQueryClient } from "@tanstack/react-query";
import { type ReactNode, useState } from "react";
import { ConfirmButton } from "../../components/Confirm";
import type { FormValues } from "../../components/Form";
import { SecretOnce } from "../../components/SecretOnce";
import { formatTime } from "../../lib/format";
import "./events.css";

/** A create mutation that refreshes `key` once the api has answered. */
export function useCreate<T>(key: QueryKey, create: (values: FormValues) => Promise<T>, created?: (value: T) => void) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: create,
    onSuccess: async (value) => {
      created?.(value);
      await client.invalidateQueries({ queryKey: key });
    },
  });
}

/** Deletes after the user confirms, then refreshes `key`; a refusal is shown in the dialog. */
export function DeleteButton({
  label = "Delete",
  question,
  queryKey,
  remove,
}: {
  label?: string;
  question: string;
  queryKey: QueryKey;
  remove: () => Promise<unknown>;
}) {
  const client = useQueryClient();
  const mutation = useMutation({
    mutationFn: remove,
    onSuccess: () => client.invalidateQueries({ queryKey }),
  });
  return <ConfirmButton label={label} question={question} danger onConfirm={() => mutation.mutateAsync()} />;
}

/** A form to add something, folded away unless there is nothing yet. */
export function CreatePanel({ title, open, children }: { title: string; open: boolean; children: ReactNode }) {
  return (
    <details className="create-panel" open={open}>
      <summary>{title}</summary>
      {children}
    </details>
  );
}

/** Event patterns and the attribute filters that narrow them. */
export function EventFilter({
  events,
  kinds = [],
  statuses = [],
  tags = [],
}: {
  events: string[];
  kinds?: string[];
  statuses?: string[];
  tags?: string[];
}) {
  const narrowing: [string, string[]][] = [
    ["kinds", kinds],
    ["statuses", statuses],
    ["tags", tags],
  ];
  return (
    <span className="filter">
      {events.map((event) => (
        <code key={event} className="chip">
          {event}
        </code>
      ))}
      {narrowing
        .filter(([, values]) => values.length > 0)
        .map(([name, values]) => (
          <span key={name} className="muted">
            {" "}
            {name}: {values.join(", ")}
          </span>
        ))}
    </span>
  );
}

/** Enabled, or disabled with the reason the service gave. */
export function Enabled({ enabled, reason }: { enabled: boolean; reason?: string | null }) {
  return (
    <span className={`badge tone-${enabled ? "ok" : "bad"}`} data-enabled={enabled} title={reason ?? undefined}>
      {enabled ? "enabled" : "disabled"}
      {!enabled && reason ? `: ${reason}` : ""}
    </span>
  );
}

/** The api's `owner/project` path parameters. */
export function projectPath(owner: string, project: string) {
  return { params: { path: { owner, project } } };
}

/** What a webhook and a connection both say about their state, after the rows of `children`. */
export function TargetFacts({
  target,
  children,
}: {
  target: {
    enabled: boolean;
    disabled_reason?: string | null;
    consecutive_failures?: number;
    circuit_open_until?: string | null;
    created_at: string;
    description?: string;
  };
  children: ReactNode;
}) {
  return (
    <dl className="pairs">
      {children}
      <dt>State</dt>
      <dd>
        <Enabled enabled={target.enabled} reason={target.disabled_reason} />
      </dd>
      <dt>Failures in a row</dt>
      <dd>
        {target.consecutive_failures ?? 0}
        {target.circuit_open_until && <span className="muted"> (paused until {formatTime(target.circuit_open_until)})</span>}
      </dd>
      <dt>Created</dt>
      <dd>{formatTime(target.created_at)}</dd>
      {target.description && (
        <>
          <dt>Description</dt>
          <dd>{target.description}</dd>
        </>
      )}
    </dl>
  );
}

/** A create mutation for what comes back with its signing secret, which `secret` shows once. */
export function useCreateWithSecret(key: QueryKey, create: (values: FormValues) => Promise<{ secret?: string | null }>) {
  const [secret, setSecret] = useState<string | null>(null);
  const mutation = useCreate(key, create, (made) => setSecret(made.secret ?? null));
  return { create: mutation, secret: <SigningSecret secret={secret} onClose={() => setSecret(null)} /> };
}

/** The signing secret of a new webhook or webhook connection, shown once. */
export function SigningSecret({ secret, onClose }: { secret: string | null; onClose: () => void }) {
  return (
    <SecretOnce title="The signing secret" secret={secret} onClose={onClose}>
      <p className="muted">Receivers verify each request's webhook-signature header with it (Standard Webhooks).</p>
    </SecretOnce>
  );
}
