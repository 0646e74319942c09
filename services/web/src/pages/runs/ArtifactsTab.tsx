/** A run's artifacts: the list, a download for each, and a preview of the one chosen. */
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useSearchParams } from "react-router";
import { api, unwrap } from "../../api/client";
import { EmptyState, ErrorView, Loading } from "../../components/States";
import { formatBytes, formatTime } from "../../lib/format";
import { useProject } from "../../lib/params";
import { pollWhileLive } from "../../lib/runStatus";
import { type Artifact, downloadArtifact, runPath } from "./artifactFiles";
import { ArtifactPreview } from "./ArtifactPreview";
import { runKeys, useRun, useRunUuid } from "./useRun";

function DownloadButton({ artifact }: { artifact: Artifact }) {
  const [error, setError] = useState<string | null>(null);
  return (
    <>
      <button
        type="button"
        aria-label={`Download ${artifact.name}`}
        onClick={() => {
          setError(null);
          downloadArtifact(artifact).catch((cause: unknown) => setError(cause instanceof Error ? cause.message : String(cause)));
        }}
      >
        Download
      </button>
      {error && (
        <span className="error" role="alert">
          {error}
        </span>
      )}
    </>
  );
}

function ArtifactRow({ artifact, open, onToggle }: { artifact: Artifact; open: boolean; onToggle: () => void }) {
  return (
    <tr data-artifact={runPath(artifact)} data-kind={artifact.kind} className={open ? "selected" : undefined}>
      <td>
        <code>{artifact.name}</code>
        {artifact.is_input && <span className="tag">input</span>}
      </td>
      <td>{artifact.kind}</td>
      <td className="num">{artifact.step ?? "–"}</td>
      <td className="num">{formatBytes(artifact.size)}</td>
      <td>{formatTime(artifact.created_at)}</td>
      <td>
        <div className="row-actions">
        <button type="button" aria-expanded={open} aria-label={`Preview ${artifact.name}`} onClick={onToggle}>
          {open ? "Hide" : "Preview"}
        </button>
        <DownloadButton artifact={artifact} />
        </div>
      </td>
    </tr>
  );
}

export default function ArtifactsTab() {
  const { owner, project } = useProject();
  const uuid = useRunUuid();
  const run = useRun(uuid);
  const artifacts = useQuery({
    queryKey: runKeys.part(owner, project, uuid, "artifacts"),
    queryFn: () =>
      unwrap(api.GET("/api/v1/{owner}/{project}/runs/{run_uuid}/artifacts", { params: { path: { owner, project, run_uuid: uuid } } })),
    refetchInterval: pollWhileLive(run.data ? [run.data.status] : []),
  });
  const [params, setParams] = useSearchParams(); // ?artifact=<its path in the run>: a link to a preview
  const open = params.get("artifact");
  const setOpen = (path: string | null) => setParams(path ? { artifact: path } : {}, { replace: true });
  if (artifacts.isPending) return <Loading what="Loading the artifacts" />;
  if (artifacts.isError) return <ErrorView error={artifacts.error} retry={() => void artifacts.refetch()} />;
  const rows = artifacts.data.artifacts;
  if (rows.length === 0) {
    return (
      <EmptyState title="No artifacts yet" command={'from axonal import tracking\ntracking.log_artifact("model.pt")'}>
        Files, images, tables, curves and confusion matrices a run logs show up here.
      </EmptyState>
    );
  }
  const chosen = rows.find((a) => runPath(a) === open);
  return (
    <section aria-label="Artifacts">
      <table className="grid" aria-label="Artifacts">
        <thead>
          <tr>
            <th>Name</th>
            <th>Kind</th>
            <th className="num">Step</th>
            <th className="num">Size</th>
            <th>Created</th>
            <th>
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((artifact) => (
            <ArtifactRow
              key={artifact.path}
              artifact={artifact}
              open={runPath(artifact) === open}
              onToggle={() => setOpen(runPath(artifact) === open ? null : runPath(artifact))}
            />
          ))}
        </tbody>
      </table>
      {chosen && (
        <section className="panel preview" aria-label={`Preview of ${chosen.name}`}>
          <h2>{chosen.name}</h2>
          <ArtifactPreview artifact={chosen} />
        </section>
      )}
    </section>
  );
}
