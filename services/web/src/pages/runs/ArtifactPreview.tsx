/** A preview of one artifact, chosen by its kind: image, text, table, curve, histogram, matrix. */
import { useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { ErrorView, Loading } from "../../components/States";
import { type Artifact, fetchArtifact, type Preview, previewOf } from "./artifactFiles";
import { ConfusionMatrix, type Confusion } from "./ConfusionMatrix";
import { parseDelimited } from "./csv";
import { CurveChart } from "./CurveChart";

const TEXT_LIMIT = 200_000;
const TABLE_ROWS = 101; // the header and 100 rows

function ImagePreview({ blob, name }: { blob: Blob; name: string }) {
  const [url, setUrl] = useState<string>();
  useEffect(() => {
    const made = URL.createObjectURL(blob);
    setUrl(made);
    return () => URL.revokeObjectURL(made);
  }, [blob]);
  return url ? <img className="artifact-image" src={url} alt={name} /> : null;
}

function TablePreview({ rows: [head = [], ...rows], name }: { rows: string[][]; name: string }) {
  return (
    <div className="table-scroll">
      <table className="grid" aria-label={name}>
        <thead>
          <tr>
            {head.map((h, i) => (
              <th key={i}>{h}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row, r) => (
            <tr key={r}>
              {row.map((cell, c) => (
                <td key={c}>{cell}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      <p className="muted">The first {rows.length} rows.</p>
    </div>
  );
}

/** Histogram bins drawn at their centres. */
const centres = (edges: number[]) => edges.slice(1).map((edge, i) => (edge + edges[i]) / 2);

type Shown =
  | { kind: "image"; blob: Blob }
  | { kind: "text"; text: string; cut: boolean }
  | { kind: "table"; rows: string[][] }
  | { kind: "curve"; x: number[]; y: number[]; annotation?: string | null; bars: boolean }
  | { kind: "confusion"; matrix: Confusion };

/** The artifact's bytes made ready to show (a file that does not parse fails here, in words). */
async function read(artifact: Artifact, preview: Exclude<Preview, "none">): Promise<Shown> {
  const blob = await fetchArtifact(artifact);
  switch (preview) {
    case "image":
      return { kind: "image", blob };
    case "text":
      return { kind: "text", text: await blob.slice(0, TEXT_LIMIT).text(), cut: blob.size > TEXT_LIMIT };
    case "table": {
      const tsv = artifact.path.toLowerCase().endsWith(".tsv");
      return { kind: "table", rows: parseDelimited(await blob.text(), tsv ? "\t" : ",", TABLE_ROWS) };
    }
    case "curve": {
      const curve = JSON.parse(await blob.text()) as { x: number[]; y: number[]; annotation?: string | null };
      return { kind: "curve", ...curve, bars: false };
    }
    case "histogram": {
      const histogram = JSON.parse(await blob.text()) as { counts: number[]; edges: number[] };
      return { kind: "curve", x: centres(histogram.edges), y: histogram.counts, bars: true };
    }
    case "confusion":
      return { kind: "confusion", matrix: JSON.parse(await blob.text()) as Confusion };
  }
}

function Shown({ shown, artifact }: { shown: Shown; artifact: Artifact }) {
  const label = `Preview of ${artifact.name}`;
  switch (shown.kind) {
    case "image":
      return <ImagePreview blob={shown.blob} name={artifact.name} />;
    case "table":
      return <TablePreview rows={shown.rows} name={label} />;
    case "curve":
      return (
        <figure>
          <CurveChart x={shown.x} y={shown.y} label={label} bars={shown.bars} />
          {shown.annotation && <figcaption>{shown.annotation}</figcaption>}
        </figure>
      );
    case "confusion":
      return <ConfusionMatrix matrix={shown.matrix} label={label} />;
    case "text":
      return (
        <>
          <pre className="text" aria-label={label}>
            {shown.text}
          </pre>
          {shown.cut && <p className="muted">The first {TEXT_LIMIT.toLocaleString()} characters; download it for the rest.</p>}
        </>
      );
  }
}

export function ArtifactPreview({ artifact }: { artifact: Artifact }) {
  const preview = previewOf(artifact);
  const file = useQuery({
    queryKey: ["artifact", artifact.path, artifact.sha256],
    queryFn: () => read(artifact, preview as Exclude<Preview, "none">),
    enabled: preview !== "none",
    staleTime: Infinity,
  });
  if (preview === "none") return <p className="muted">No preview for this kind of file; download it instead.</p>;
  if (file.isPending) return <Loading what="Loading the preview" />;
  if (file.isError) return <ErrorView error={file.error} retry={() => void file.refetch()} />;
  return <Shown shown={file.data} artifact={artifact} />;
}
