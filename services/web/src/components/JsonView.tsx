/** JSON pretty-printed as a collapsible tree; strings that hold JSON are shown parsed. */
import { useState } from "react";
import { parsedJson } from "../lib/json";

function Leaf({ value }: { value: unknown }) {
  if (value === null) return <span className="j-null">null</span>;
  if (typeof value === "string") return <span className="j-str">{JSON.stringify(value)}</span>;
  if (typeof value === "number" || typeof value === "boolean") return <span className="j-num">{String(value)}</span>;
  return <span>{String(value)}</span>;
}

function Node({ name, value, depth }: { name?: string; value: unknown; depth: number }) {
  const [open, setOpen] = useState(depth < 3);
  const label = name !== undefined ? <span className="j-key">{name}: </span> : null;
  if (value === null || typeof value !== "object") {
    return (
      <div className="j-line">
        {label}
        <Leaf value={value} />
      </div>
    );
  }
  const entries = Array.isArray(value) ? value.map((v, i) => [String(i), v] as const) : Object.entries(value);
  const [openBr, closeBr] = Array.isArray(value) ? ["[", "]"] : ["{", "}"];
  return (
    <div className="j-line">
      <button type="button" className="j-toggle" aria-expanded={open} onClick={() => setOpen(!open)}>
        {open ? "▾" : "▸"}
      </button>
      {label}
      {openBr}
      {!open && <span className="muted"> {entries.length} {entries.length === 1 ? "item" : "items"} {closeBr}</span>}
      {open && (
        <>
          <div className="j-children">
            {entries.map(([key, child]) => (
              <Node key={key} name={Array.isArray(value) ? undefined : key} value={child} depth={depth + 1} />
            ))}
          </div>
          {closeBr}
        </>
      )}
    </div>
  );
}

export function JsonView({ value }: { value: unknown }) {
  const data = parsedJson(value);
  if (data === undefined) return <span className="muted">–</span>;
  if (typeof data === "string") return <pre className="text">{data}</pre>;
  return (
    <div className="json" role="tree">
      <Node value={data} depth={0} />
    </div>
  );
}
