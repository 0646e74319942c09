/**
 * The delivery log of a webhook or a connection: newest first, each delivery's status, its
 * attempts with the response's code, body excerpt and error; polled while any delivery still
 * waits; one delivery, or every dead one (optionally of a time window), sent again on request.
 */
import { type QueryKey, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Fragment, useState } from "react";
import type { components } from "../../api/schema";
import { ConfirmButton } from "../../components/Confirm";
import { EmptyState, ErrorView, Loading } from "../../components/States";
import { StatusBadge } from "../../components/StatusBadge";
import { formatTime } from "../../lib/format";

export type Delivery = components["schemas"]["DeliveryInfo"];
export type DeliveryStatus = components["schemas"]["DeliveryStatus"];
type DeliveryList = components["schemas"]["DeliveryList"];
type ReplayResult = components["schemas"]["ReplayResult"];
type ReplayWindow = components["schemas"]["ReplayWindow"];

const STATUSES: DeliveryStatus[] = ["pending", "failed", "delivered", "dead"];
/** Statuses a delivery leaves by itself: the log is polled while one is shown. */
const WAITING: DeliveryStatus[] = ["pending", "failed"];
export const POLL_MS = 2_000;

/** Where the deliveries come from and how they are replayed (a webhook's or a connection's). */
export interface DeliverySource {
  /** The query key of the log; every status filter is under it. */
  key: QueryKey;
  list: (status: DeliveryStatus | undefined) => Promise<DeliveryList>;
  replayOne: (deliveryId: string) => Promise<ReplayResult>;
  replayDead: (window: ReplayWindow | null) => Promise<ReplayResult>;
}

export function newestFirst(deliveries: Delivery[]): Delivery[] {
  return [...deliveries].sort((a, b) => Date.parse(b.created_at) - Date.parse(a.created_at));
}

export function isWaiting(deliveries: Delivery[]): boolean {
  return deliveries.some((d) => WAITING.includes(d.status));
}

function queued(count: number): string {
  return count === 1 ? "1 delivery queued again" : `${count} deliveries queued again`;
}

export function DeliveryLog({ source, empty }: { source: DeliverySource; empty: string }) {
  const client = useQueryClient();
  const [status, setStatus] = useState<DeliveryStatus | "">("");
  const [notice, setNotice] = useState<string | null>(null);
  const log = useQuery({
    queryKey: [...source.key, status],
    queryFn: () => source.list(status || undefined),
    refetchInterval: (query) => (isWaiting(query.state.data?.deliveries ?? []) ? POLL_MS : false),
  });
  const refresh = (result: ReplayResult) => {
    setNotice(queued(result.replayed));
    return client.invalidateQueries({ queryKey: source.key });
  };
  const replayOne = useMutation({ mutationFn: source.replayOne, onSuccess: refresh });
  const replayDead = useMutation({ mutationFn: source.replayDead, onSuccess: refresh });
  const rows = newestFirst(log.data?.deliveries ?? []);
  return (
    <section aria-labelledby="deliveries-title" className="delivery-log">
      <h2 id="deliveries-title">Deliveries</h2>
      <div className="toolbar">
        <label>
          Status
          <select value={status} onChange={(e) => setStatus(e.target.value as DeliveryStatus | "")} aria-label="Only deliveries with status">
            <option value="">any</option>
            {STATUSES.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </label>
        {isWaiting(rows) && (
          <span className="muted" data-polling="true">
            Refreshing every {POLL_MS / 1000} s while deliveries wait
          </span>
        )}
        <span className="spacer" />
        <ReplayDead onReplay={(window) => replayDead.mutateAsync(window)} />
      </div>
      <p role="status" aria-live="polite" className="notice">
        {notice}
      </p>
      {log.isPending ? (
        <Loading what="Loading deliveries" />
      ) : log.isError ? (
        <ErrorView error={log.error} retry={() => void log.refetch()} />
      ) : rows.length === 0 ? (
        <EmptyState title={status ? `No ${status} deliveries` : "No deliveries yet"}>{empty}</EmptyState>
      ) : (
        <DeliveryTable rows={rows} onReplay={(id) => replayOne.mutateAsync(id)} />
      )}
    </section>
  );
}

/** Every dead delivery, or those created between two times, sent again after a confirmation. */
function ReplayDead({ onReplay }: { onReplay: (window: ReplayWindow | null) => Promise<unknown> }) {
  const [since, setSince] = useState("");
  const [until, setUntil] = useState("");
  const iso = (local: string) => (local ? new Date(local).toISOString() : null);
  const bounds = since || until ? { since: iso(since), until: iso(until) } : null;
  const span = [since && `from ${formatTime(bounds?.since)}`, until && `before ${formatTime(bounds?.until)}`].filter(Boolean).join(" ");
  return (
    <fieldset className="replay-window">
      <legend className="muted">Replay dead deliveries</legend>
      <label>
        From
        <input type="datetime-local" value={since} onChange={(e) => setSince(e.target.value)} aria-label="Replay from" />
      </label>
      <label>
        Before
        <input type="datetime-local" value={until} onChange={(e) => setUntil(e.target.value)} aria-label="Replay before" />
      </label>
      <ConfirmButton
        label={bounds ? "Replay dead in window" : "Replay all dead"}
        question={`Send every dead delivery${span ? ` created ${span}` : ""} again?`}
        onConfirm={() => onReplay(bounds)}
      />
    </fieldset>
  );
}

function DeliveryTable({ rows, onReplay }: { rows: Delivery[]; onReplay: (id: string) => Promise<unknown> }) {
  const [open, setOpen] = useState<string | null>(null);
  return (
    <table className="grid deliveries" aria-label="Deliveries">
      <thead>
        <tr>
          <th>Event</th>
          <th>Status</th>
          <th className="num">Attempts</th>
          <th>Last response</th>
          <th>Last error</th>
          <th>Created</th>
          <th>Updated</th>
          <th>
            <span className="sr-only">Actions</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {rows.map((d) => {
          const last = d.attempts.at(-1);
          const expanded = open === d.id;
          return (
            <Fragment key={d.id}>
              <tr data-delivery-id={d.id} data-status={d.status} data-attempts={d.attempts.length}>
                <td>
                  <div>{d.event_type}</div>
                  <code className="muted small">{d.id}</code>
                </td>
                <td>
                  <StatusBadge status={d.status} />
                  {d.next_attempt_at && d.status !== "delivered" && d.status !== "dead" && (
                    <div className="muted small">next {formatTime(d.next_attempt_at)}</div>
                  )}
                </td>
                <td className="num">{d.attempts.length}</td>
                <td>
                  {last ? (
                    <>
                      <span className="mono" data-response-code={last.status_code ?? "none"}>
                        {last.status_code ?? "no response"}
                      </span>
                      {last.response_excerpt && <div className="excerpt mono small">{last.response_excerpt}</div>}
                    </>
                  ) : (
                    <span className="muted">not sent yet</span>
                  )}
                </td>
                <td className="error small">{last?.error ?? ""}</td>
                <td>{formatTime(d.created_at)}</td>
                <td>{formatTime(d.updated_at)}</td>
                <td>
                  <div className="row-actions">
                    <button
                      type="button"
                      aria-expanded={expanded}
                      aria-controls={`attempts-${d.id}`}
                      aria-label={`Attempts of ${d.id}`}
                      disabled={d.attempts.length === 0}
                      onClick={() => setOpen(expanded ? null : d.id)}
                    >
                      Attempts
                    </button>
                    <ConfirmButton label="Replay" question={`Send delivery ${d.id} (${d.event_type}) again?`} onConfirm={() => onReplay(d.id)} />
                  </div>
                </td>
              </tr>
              {expanded && (
                <tr id={`attempts-${d.id}`} className="attempts-row">
                  <td colSpan={8}>
                    <Attempts attempts={d.attempts} />
                  </td>
                </tr>
              )}
            </Fragment>
          );
        })}
      </tbody>
    </table>
  );
}

function Attempts({ attempts }: { attempts: Delivery["attempts"] }) {
  return (
    <table className="grid attempts" aria-label="Attempts">
      <thead>
        <tr>
          <th className="num">#</th>
          <th>At</th>
          <th>Response</th>
          <th className="num">Latency</th>
          <th>Body excerpt</th>
          <th>Error</th>
        </tr>
      </thead>
      <tbody>
        {[...attempts].reverse().map((a) => (
          <tr key={a.number} data-attempt={a.number}>
            <td className="num">{a.number}</td>
            <td>{formatTime(a.at)}</td>
            <td className="mono">{a.status_code ?? "no response"}</td>
            <td className="num">{Math.round(a.latency_ms)} ms</td>
            <td>
              <pre className="excerpt">{a.response_excerpt}</pre>
            </td>
            <td className="error">{a.error ?? ""}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
