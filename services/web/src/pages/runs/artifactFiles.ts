/** An artifact's bytes, fetched with the api token, and what kind of preview suits it. */
import { errorOf } from "../../api/client";
import type { components } from "../../api/schema";
import { credentialHeaders } from "../../lib/token";

export type Artifact = components["schemas"]["ArtifactRecord"];
export type Preview = "image" | "text" | "table" | "curve" | "histogram" | "confusion" | "none";

/** The artifact's path within its run (its record holds the whole store key). */
export function runPath(artifact: Artifact): string {
  const prefix = `${artifact.project}/${artifact.run_uuid}/`;
  return artifact.path.startsWith(prefix) ? artifact.path.slice(prefix.length) : artifact.path;
}

export function artifactUrl(artifact: Artifact): string {
  const [owner, project] = artifact.project.split("/");
  const path = runPath(artifact).split("/").map(encodeURIComponent).join("/");
  return `/api/v1/${encodeURIComponent(owner)}/${encodeURIComponent(project)}/runs/${artifact.run_uuid}/artifacts/${path}`;
}

const extension = (path: string) => path.slice(path.lastIndexOf(".") + 1).toLowerCase();
const IMAGES = new Set(["png", "jpg", "jpeg", "gif", "svg", "webp"]);
const TEXTS = new Set(["txt", "log", "json", "yaml", "yml", "md", "py", "toml", "ini", "cfg", "out", "err"]);
const TABLES = new Set(["csv", "tsv"]);

/** The preview for an artifact: its kind says first, else its file extension. */
export function previewOf(artifact: Artifact): Preview {
  switch (artifact.kind) {
    case "curve":
      return "curve";
    case "histogram":
      return "histogram";
    case "confusion":
      return "confusion";
    case "image":
      return "image";
    case "dataframe":
      return "table";
    case "text":
      return "text";
    case "dir":
      return "none";
  }
  const ext = extension(artifact.path);
  if (IMAGES.has(ext)) return "image";
  if (TABLES.has(ext)) return "table";
  if (TEXTS.has(ext)) return "text";
  return "none";
}

/** The artifact's bytes; the api's error in words when it refuses. */
export async function fetchArtifact(artifact: Artifact): Promise<Blob> {
  const response = await fetch(artifactUrl(artifact), { headers: credentialHeaders() });
  if (!response.ok) throw errorOf(response.status, await response.json().catch(() => undefined));
  return response.blob();
}

/** Save the artifact as a file: fetched with the credentials, handed to the browser as a blob URL. */
export async function downloadArtifact(artifact: Artifact): Promise<void> {
  const url = URL.createObjectURL(await fetchArtifact(artifact));
  const link = document.createElement("a");
  link.href = url;
  link.download = runPath(artifact).split("/").pop() ?? artifact.name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
