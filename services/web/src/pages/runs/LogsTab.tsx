/** A run's logs: live, virtualised, searchable, stdout and stderr told apart, tail followed. */
import { useVirtualizer } from "@tanstack/react-virtual";
import { useEffect, useMemo, useRef, useState } from "react";
import { EmptyState, ErrorView } from "../../components/States";
import { useProject } from "../../lib/params";
import { matcher, matching, pieces } from "./logSearch";
import { type LogLine, useLogStream } from "./useLogStream";
import { useRunUuid } from "./useRun";

const ROW = 20;

function Line({ line, pattern }: { line: LogLine; pattern: RegExp | null }) {
  return (
    <>
      <span className="seq" aria-hidden="true">
        {line.seq}
      </span>
      <span className="stream-tag">{line.stream === "stderr" ? "err" : "out"}</span>
      <span className="text">
        {pieces(line.line, pattern).map((piece, i) => (piece.match ? <mark key={i}>{piece.text}</mark> : piece.text))}
      </span>
    </>
  );
}

interface ViewProps {
  lines: LogLine[];
  shown: number[];
  pattern: RegExp | null;
  follow: boolean;
  /** The reader went up to read: stop following the tail. */
  onLeaveTail: () => void;
}

const UP_KEYS = new Set(["ArrowUp", "PageUp", "Home"]);

function LogView({ lines, shown, pattern, follow, onLeaveTail }: ViewProps) {
  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: shown.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW,
    overscan: 30,
    initialRect: { width: 1000, height: 600 },
  });
  useEffect(() => {
    if (follow && shown.length) virtualizer.scrollToIndex(shown.length - 1, { align: "end" });
  }, [follow, shown.length, virtualizer]);
  return (
    <div
      ref={scroller}
      className="logs"
      role="log"
      aria-label="Log lines"
      tabIndex={0}
      onWheel={(e) => e.deltaY < 0 && onLeaveTail()}
      onKeyDown={(e) => UP_KEYS.has(e.key) && onLeaveTail()}
    >
      <div style={{ height: virtualizer.getTotalSize(), position: "relative" }}>
        {virtualizer.getVirtualItems().map((item) => {
          const line = lines[shown[item.index]];
          return (
            <div
              key={line.seq}
              className={`log-line ${line.stream}`}
              data-stream={line.stream}
              data-seq={line.seq}
              style={{ height: item.size, transform: `translateY(${item.start}px)` }}
            >
              <Line line={line} pattern={pattern} />
            </div>
          );
        })}
      </div>
    </div>
  );
}

export default function LogsTab() {
  const { owner, project } = useProject();
  const uuid = useRunUuid();
  const url = `/api/v1/${encodeURIComponent(owner)}/${encodeURIComponent(project)}/runs/${encodeURIComponent(uuid)}/logs/stream`;
  const stream = useLogStream(url);
  const [query, setQuery] = useState("");
  const [follow, setFollow] = useState(true);
  const pattern = useMemo(() => matcher(query), [query]);
  const shown = useMemo(() => matching(stream.lines, pattern), [stream.lines, stream.version, pattern]);
  const hasLines = stream.lines.length > 0;
  return (
    <section aria-label="Logs" className="logs-tab">
      <div className="toolbar">
        <input type="search" aria-label="Search the logs" placeholder="Search the logs" value={query} onChange={(e) => setQuery(e.target.value)} />
        {query && (
          <span className="muted" aria-live="polite" data-testid="log-matches">
            {shown.length} of {stream.lines.length} lines match
          </span>
        )}
        <label>
          <input type="checkbox" checked={follow} onChange={(e) => setFollow(e.target.checked)} /> Follow the tail
        </label>
        <span className="muted" aria-live="polite">
          {stream.done ? `${stream.lines.length} lines, complete` : "live"}
        </span>
      </div>
      {stream.error != null && <ErrorView error={stream.error} />}
      {!hasLines && stream.done && <EmptyState title="This run wrote no logs">Lines a run prints on stdout or stderr show up here as it runs.</EmptyState>}
      {!hasLines && !stream.done && stream.error == null && (
        <div className="state" role="status">
          Waiting for the first lines…
        </div>
      )}
      {hasLines && <LogView lines={stream.lines} shown={shown} pattern={pattern} follow={follow} onLeaveTail={() => setFollow(false)} />}
    </section>
  );
}
