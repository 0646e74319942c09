/**
 * A trace's observations as one virtualised list: the tree (nested by parent, expandable) on the
 * left, each row's waterfall bar on the right, placed by its start and end within the trace.
 * Arrow keys move through it as through any tree; the focused row is the selected one.
 */
import { useVirtualizer } from "@tanstack/react-virtual";
import { type KeyboardEvent, memo, useCallback, useMemo, useRef, useState } from "react";
import { formatCost, formatDuration } from "../../lib/format";
import { barOf, parentIds, span, type TreeNode, visibleRows } from "./tree";
import type { ObservationView } from "./types";

const ROW_HEIGHT = 30;
const INDENT = 14;
const MAX_INDENT_LEVELS = 24; // deeper levels still say their level, without running off the row

type Node = TreeNode<ObservationView>;

export const rowId = (observationId: string) => `observation-row-${observationId}`;

interface RowProps {
  node: Node;
  level: number;
  whole: { start: number; end: number };
  selected: boolean;
  expanded: boolean | undefined;
  onToggle: (id: string) => void;
  onSelect: (id: string) => void;
}

const Row = memo(function Row({ node, level, whole, selected, expanded, onToggle, onSelect }: RowProps) {
  const o = node.observation;
  const bar = barOf(node, whole);
  const seconds = o.end_time ? (node.end - node.start) / 1000 : null;
  return (
    <div
      id={rowId(o.id)}
      role="treeitem"
      aria-level={level}
      aria-expanded={expanded}
      aria-selected={selected}
      className={`obs-row${selected ? " selected" : ""}`}
      data-observation-id={o.id}
      data-observation-name={o.name ?? ""}
      data-observation-type={o.type}
      data-level={o.level}
      data-duration-ms={seconds == null ? "" : Math.round(seconds * 1000)}
      data-cost={o.total_cost}
      onClick={() => onSelect(o.id)}
    >
      <div className="obs-label" style={{ paddingLeft: Math.min(level - 1, MAX_INDENT_LEVELS) * INDENT }}>
        {expanded === undefined ? (
          <span className="obs-toggle" aria-hidden />
        ) : (
          <button
            type="button"
            tabIndex={-1}
            className="obs-toggle ghost"
            aria-label={expanded ? "Collapse" : "Expand"}
            onClick={(event) => {
              event.stopPropagation();
              onToggle(o.id);
            }}
          >
            {expanded ? "▾" : "▸"}
          </button>
        )}
        <span className={`obs-type type-${o.type.toLowerCase()}`}>{o.type}</span>
        <span className="obs-name">{o.name || o.id}</span>
        {o.level === "ERROR" || o.level === "WARNING" ? <span className={`badge tone-${o.level === "ERROR" ? "bad" : "warn"}`}>{o.level}</span> : null}
        <span className="obs-duration num">{formatDuration(seconds)}</span>
        <span className="obs-cost num">{o.total_cost ? formatCost(o.total_cost) : ""}</span>
      </div>
      <div className="obs-track" aria-hidden>
        <div className={`obs-bar type-${o.type.toLowerCase()}${o.level === "ERROR" ? " failed" : ""}`} style={{ left: `${bar.left}%`, width: `${bar.width}%` }} />
      </div>
    </div>
  );
});

interface Props {
  roots: Node[];
  selected: string | null;
  onSelect: (id: string) => void;
  height?: number;
}

export function ObservationTree({ roots, selected, onSelect, height = 560 }: Props) {
  const [collapsed, setCollapsed] = useState<ReadonlySet<string>>(() => new Set());
  const rows = useMemo(() => visibleRows(roots, collapsed), [roots, collapsed]);
  const whole = useMemo(() => span(roots), [roots]);
  const position = useMemo(() => new Map(rows.map((row, i) => [row.node.observation.id, i])), [rows]);
  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 20,
    initialRect: { width: 1000, height },
  });

  const toggle = useCallback(
    (id: string) =>
      setCollapsed((current) => {
        const next = new Set(current);
        if (!next.delete(id)) next.add(id);
        return next;
      }),
    [],
  );
  // A click chooses the row and gives the tree the keyboard, as arrow keys would.
  const choose = useCallback(
    (id: string) => {
      scroller.current?.focus({ preventScroll: true });
      onSelect(id);
    },
    [onSelect],
  );
  const current = selected == null ? -1 : (position.get(selected) ?? -1);
  const go = (index: number) => {
    const to = Math.max(0, Math.min(rows.length - 1, index));
    if (!rows[to]) return;
    onSelect(rows[to].node.observation.id);
    virtualizer.scrollToIndex(to, { align: "auto" });
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const row = rows[current];
    const id = row?.node.observation.id;
    const open = row && row.node.children.length > 0 && !collapsed.has(id!);
    switch (event.key) {
      case "ArrowDown":
        go(current + 1);
        break;
      case "ArrowUp":
        go(current < 0 ? 0 : current - 1);
        break;
      case "Home":
        go(0);
        break;
      case "End":
        go(rows.length - 1);
        break;
      case "ArrowRight":
        if (!row) go(0);
        else if (row.node.children.length && !open) toggle(id!);
        else if (open) go(current + 1);
        break;
      case "ArrowLeft":
        if (!row) break;
        if (open) toggle(id!);
        else if (row.parentId) go(position.get(row.parentId) ?? current);
        break;
      case "Enter":
      case " ":
        if (row?.node.children.length) toggle(id!);
        break;
      default:
        return;
    }
    event.preventDefault();
  };

  const total = (whole.end - whole.start) / 1000;
  return (
    <div className="obs-tree">
      <div className="toolbar obs-tools">
        <button type="button" onClick={() => setCollapsed(new Set())}>
          Expand all
        </button>
        <button type="button" onClick={() => setCollapsed(new Set(parentIds(roots)))}>
          Collapse all
        </button>
        <span className="muted" aria-live="polite">
          {rows.length.toLocaleString()} shown
        </span>
      </div>
      <div className="obs-head" aria-hidden>
        <span>Observation</span>
        <span className="obs-scale">
          <span>0</span>
          <span>{formatDuration(total)}</span>
        </span>
      </div>
      <div
        ref={scroller}
        className="obs-scroll"
        role="tree"
        aria-label="Observations"
        tabIndex={0}
        aria-activedescendant={current >= 0 ? rowId(rows[current].node.observation.id) : undefined}
        onKeyDown={onKeyDown}
        style={{ maxHeight: height }}
      >
        <div style={{ height: virtualizer.getTotalSize(), position: "relative" }} role="none">
          {virtualizer.getVirtualItems().map((item) => {
            const { node } = rows[item.index];
            const id = node.observation.id;
            return (
              <div key={id} role="none" className="obs-slot" style={{ height: item.size, transform: `translateY(${item.start}px)` }}>
                <Row
                  node={node}
                  level={node.depth + 1}
                  whole={whole}
                  selected={id === selected}
                  expanded={node.children.length ? !collapsed.has(id) : undefined}
                  onToggle={toggle}
                  onSelect={choose}
                />
              </div>
            );
          })}
        </div>
      </div>
    </div>
  );
}
