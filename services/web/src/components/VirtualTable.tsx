/** A table that renders only the rows in view, so 100,000 rows scroll as smoothly as 10. */
import { useVirtualizer } from "@tanstack/react-virtual";
import { type ReactNode, useRef } from "react";

export interface Column<T> {
  key: string;
  header: ReactNode;
  cell: (row: T) => ReactNode;
  /** A CSS grid track, e.g. "2fr" or "120px". */
  width?: string;
  align?: "left" | "right";
}

interface Props<T> {
  rows: T[];
  columns: Column<T>[];
  rowKey: (row: T) => string;
  label: string;
  rowHeight?: number;
  maxHeight?: number;
  selected?: (row: T) => boolean;
}

export function VirtualTable<T>({ rows, columns, rowKey, label, rowHeight = 36, maxHeight = 640, selected }: Props<T>) {
  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => rowHeight,
    overscan: 12,
    initialRect: { width: 1000, height: maxHeight },
  });
  const template = columns.map((c) => c.width ?? "1fr").join(" ");
  return (
    <div className="vtable" role="table" aria-label={label} aria-rowcount={rows.length + 1}>
      <div className="vrow head" role="row" style={{ gridTemplateColumns: template }}>
        {columns.map((c) => (
          <div key={c.key} role="columnheader" className={c.align === "right" ? "num" : undefined}>
            {c.header}
          </div>
        ))}
      </div>
      <div ref={scroller} className="vbody" style={{ maxHeight }}>
        <div style={{ height: virtualizer.getTotalSize(), position: "relative" }}>
          {virtualizer.getVirtualItems().map((item) => {
            const row = rows[item.index];
            return (
              <div
                key={rowKey(row)}
                role="row"
                aria-rowindex={item.index + 2}
                className={`vrow${selected?.(row) ? " selected" : ""}`}
                style={{ gridTemplateColumns: template, height: item.size, transform: `translateY(${item.start}px)` }}
              >
                {columns.map((c) => (
                  <div key={c.key} role="cell" className={c.align === "right" ? "num" : undefined}>
                    {c.cell(row)}
                  </div>
                ))}
              </div>
            );
          })}
        </div>
      </div>
    </div>
  );
}
