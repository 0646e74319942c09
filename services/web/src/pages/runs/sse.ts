/**
 * Server-Sent Events read through `fetch` (EventSource cannot send a bearer token):
 * a parser for the wire format, and a reader of a stream that resumes after its last id.
 */
import { errorOf } from "../../api/client";

export interface SseEvent {
  event: string;
  data: string;
  id?: string;
}

/** Turns chunks of an event stream into events, as the HTML standard parses them. */
export class SseParser {
  private buffer = "";
  private data: string[] = [];
  private event = "";
  private id: string | undefined;
  /** The id of the last event dispatched, to resume from (Last-Event-ID). */
  lastEventId: string | undefined;

  feed(chunk: string): SseEvent[] {
    let text = this.buffer + chunk;
    // A "\r" at the end may be the first half of "\r\n": keep it for the next chunk.
    const held = text.endsWith("\r") ? "\r" : "";
    if (held) text = text.slice(0, -1);
    const lines = text.split(/\r\n|\r|\n/);
    this.buffer = (lines.pop() ?? "") + held; // the last piece has no line end yet
    const out: SseEvent[] = [];
    for (const line of lines) {
      const event = this.line(line);
      if (event) out.push(event);
    }
    return out;
  }

  private line(line: string): SseEvent | null {
    if (line === "") return this.dispatch();
    if (line.startsWith(":")) return null;
    const colon = line.indexOf(":");
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "data") this.data.push(value);
    else if (field === "event") this.event = value;
    else if (field === "id" && !value.includes("\0")) this.id = value;
    return null;
  }

  private dispatch(): SseEvent | null {
    if (this.id !== undefined) this.lastEventId = this.id;
    const event = this.data.length ? { event: this.event || "message", data: this.data.join("\n"), id: this.id } : null;
    this.data = [];
    this.event = "";
    this.id = undefined;
    return event;
  }
}

interface ReadOptions {
  headers: Record<string, string>;
  signal: AbortSignal;
  onEvent: (event: SseEvent) => void;
}

/** Read the stream at `url` until it ends; returns the last event id seen. Throws on HTTP errors. */
export async function readSse(url: string, { headers, signal, onEvent }: ReadOptions): Promise<string | undefined> {
  const response = await fetch(url, { headers: { Accept: "text/event-stream", ...headers }, signal });
  if (!response.ok || !response.body) {
    const body: unknown = await response.json().catch(() => undefined);
    throw errorOf(response.status, body);
  }
  const parser = new SseParser();
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    for (const event of parser.feed(value)) onEvent(event);
  }
  return parser.lastEventId;
}
