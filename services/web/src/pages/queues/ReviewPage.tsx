/** One queue's review screen: its pending items, and for the first one a field per score
 * config; completing it creates the scores (checked against their configs) and moves on. */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Link, useParams } from "react-router";
import { api, unwrap } from "../../api/client";
import { EmptyState, ErrorView, Loading } from "../../components/States";
import { useProject } from "../../lib/params";
import { type QueueItem, type ScoreConfig, completionScores } from "./shared";

function ScoreField({ config, value, onChange }: { config: ScoreConfig; value: string; onChange: (value: string) => void }) {
  const id = `score-${config.id}`;
  const label = (
    <label htmlFor={id}>
      {config.name}
      {config.description ? <span className="muted"> {config.description}</span> : null}
    </label>
  );
  if (config.data_type === "NUMERIC") {
    return (
      <div className="field">
        {label}
        <input id={id} type="number" step="any" min={config.min_value ?? undefined} max={config.max_value ?? undefined} value={value} onChange={(e) => onChange(e.target.value)} />
      </div>
    );
  }
  if (config.data_type === "TEXT") {
    return (
      <div className="field">
        {label}
        <textarea id={id} maxLength={500} value={value} onChange={(e) => onChange(e.target.value)} />
      </div>
    );
  }
  const options = config.categories ?? [];
  return (
    <div className="field">
      {label}
      <select id={id} value={value} onChange={(e) => onChange(e.target.value)}>
        <option value="">—</option>
        {options.map((c) => (
          <option key={c.label} value={config.data_type === "BOOLEAN" ? String(c.value) : c.label}>
            {c.label}
          </option>
        ))}
      </select>
    </div>
  );
}

function Review({ item, configs, queueId }: { item: QueueItem; configs: ScoreConfig[]; queueId: string }) {
  const { owner, project, base } = useProject();
  const client = useQueryClient();
  const [entered, setEntered] = useState<Record<string, string>>({});
  const [comment, setComment] = useState("");
  const complete = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST("/api/v1/{owner}/{project}/annotation-queues/{queue_id}/items/{item_id}/complete", {
          params: { path: { owner, project, queue_id: queueId, item_id: item.id } },
          body: { scores: completionScores(configs, entered, comment) },
        }),
      ),
    onSuccess: () => client.invalidateQueries({ queryKey: ["annotation-queue-items", owner, project, queueId] }),
  });
  const target = item.object_type === "TRACE" ? `${base}/traces/${encodeURIComponent(item.object_id)}` : item.object_type === "SESSION" ? `${base}/sessions/${encodeURIComponent(item.object_id)}` : null;
  return (
    <form
      className="form"
      aria-label="Review"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        complete.mutate();
      }}
    >
      <p>
        {item.object_type.toLowerCase()} {target ? <Link to={target}>{item.object_id}</Link> : <code>{item.object_id}</code>}
      </p>
      {configs.map((config) => (
        <ScoreField key={config.id} config={config} value={entered[config.id] ?? ""} onChange={(value) => setEntered({ ...entered, [config.id]: value })} />
      ))}
      <div className="field">
        <label htmlFor="review-comment">Comment</label>
        <textarea id="review-comment" value={comment} onChange={(e) => setComment(e.target.value)} />
      </div>
      {complete.isError ? (
        <div className="error form-error" role="alert">
          <p>{complete.error.message}</p>
        </div>
      ) : null}
      <div className="actions">
        <button type="submit" className="primary" disabled={complete.isPending}>
          Complete
        </button>
      </div>
    </form>
  );
}

export default function ReviewPage() {
  const { owner, project } = useProject();
  const { queueId = "" } = useParams();
  const path = { owner, project, queue_id: queueId };
  const queue = useQuery({
    queryKey: ["annotation-queue", owner, project, queueId],
    queryFn: () => unwrap(api.GET("/api/v1/{owner}/{project}/annotation-queues/{queue_id}", { params: { path } })),
  });
  const configs = useQuery({
    queryKey: ["annotation-queue-configs", owner, project, queueId],
    queryFn: () => unwrap(api.GET("/api/v1/{owner}/{project}/annotation-queues/{queue_id}/score-configs", { params: { path } })),
  });
  const items = useQuery({
    queryKey: ["annotation-queue-items", owner, project, queueId],
    queryFn: () => unwrap(api.GET("/api/v1/{owner}/{project}/annotation-queues/{queue_id}/items", { params: { path, query: { status: "PENDING", limit: 100 } } })),
  });
  const title = <h1 id="review-title">{queue.data?.name ?? "Annotation queue"}</h1>;
  const failed = queue.error ?? configs.error ?? items.error;
  let body;
  if (failed) {
    body = <ErrorView error={failed} />;
  } else if (!configs.data || !items.data || queue.isPending) {
    body = <Loading what="Loading the queue" />;
  } else if (items.data.data.length === 0) {
    body = <EmptyState title="Nothing left to review" command={`axonal queues enqueue ${queueId} <trace id> -p ${owner}/${project}`} />;
  } else {
    const next = items.data.data[0];
    body = (
      <>
        <p className="muted">{items.data.meta.total_items} pending</p>
        <Review key={next.id} item={next} configs={configs.data.data} queueId={queueId} />
      </>
    );
  }
  return (
    <section aria-labelledby="review-title">
      {title}
      {body}
    </section>
  );
}
