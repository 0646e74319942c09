/** Finding a text in log lines: which lines hold it, and the pieces to highlight. */

export interface Piece {
  text: string;
  match: boolean;
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** A case-insensitive matcher for `query`, or null when there is nothing to look for. */
export function matcher(query: string): RegExp | null {
  return query ? new RegExp(escape(query), "gi") : null;
}

/** `line` cut into the parts that match `pattern` and those that do not. */
export function pieces(line: string, pattern: RegExp | null): Piece[] {
  if (!pattern) return [{ text: line, match: false }];
  const out: Piece[] = [];
  let at = 0;
  for (const found of line.matchAll(new RegExp(pattern.source, pattern.flags))) {
    const start = found.index ?? 0;
    if (start > at) out.push({ text: line.slice(at, start), match: false });
    out.push({ text: found[0], match: true });
    at = start + found[0].length;
  }
  if (at < line.length) out.push({ text: line.slice(at), match: false });
  return out;
}

/** The indexes of the lines that hold `pattern` (all of them without one). */
export function matching(lines: { line: string }[], pattern: RegExp | null): number[] {
  const test = pattern && new RegExp(pattern.source, "i"); // not global: no lastIndex to carry
  const out: number[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!test || test.test(lines[i].line)) out.push(i);
  }
  return out;
}
