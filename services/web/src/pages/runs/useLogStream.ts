/** A run's log lines, followed live over SSE and resumed after the last line when cut. */
import { useEffect, useRef, useState } from "react";
import { ApiError, errorOf } from "../../api/client";
import type { components } from "../../api/schema";
import { credentialHeaders } from "../../lib/token";
import { readSse, type SseEvent } from "./sse";

export type LogLine = components["schemas"]["LogLine"];

export interface LogStream {
  /** Every line so far, in order (the same array, grown; `version` tells it changed). */
  lines: LogLine[];
  version: number;
  done: boolean;
  error: unknown;
}

const RETRY_MS = 2000;
const FLUSH_MS = 100; // a burst of lines renders once per 100 ms, not once per line

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => clearTimeout(timer), { once: true });
  });

/** A refusal that asking again will not change (bad token, no such run). */
const isFinalError = (error: unknown) => error instanceof ApiError && error.status >= 400 && error.status < 500;

export function useLogStream(url: string): LogStream {
  const lines = useRef<LogLine[]>([]);
  const [state, setState] = useState({ version: 0, done: false, error: null as unknown });

  useEffect(() => {
    const control = new AbortController();
    const { signal } = control;
    const seen: LogLine[] = [];
    lines.current = seen;
    let last = 0;
    let done = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const flush = () => {
      timer = undefined;
      setState((s) => ({ ...s, version: s.version + 1, error: null }));
    };
    const onEvent = (event: SseEvent) => {
      if (event.event === "log") {
        const line = JSON.parse(event.data) as LogLine;
        if (line.seq <= last) return;
        last = line.seq;
        seen.push(line);
        timer ??= setTimeout(flush, FLUSH_MS);
      } else if (event.event === "done") {
        done = true;
      } else if (event.event === "error") {
        throw errorOf(503, JSON.parse(event.data));
      }
    };
    setState({ version: 0, done: false, error: null });
    void (async () => {
      while (!done && !signal.aborted) {
        const headers = credentialHeaders();
        if (last > 0) headers["Last-Event-ID"] = String(last);
        try {
          await readSse(url, { headers, signal, onEvent });
        } catch (error) {
          if (signal.aborted) return;
          setState((s) => ({ ...s, error }));
          if (isFinalError(error)) return;
        }
        if (!done) await sleep(RETRY_MS, signal); // cut off: resume after the last line
      }
      if (signal.aborted) return;
      clearTimeout(timer);
      setState((s) => ({ version: s.version + 1, done: true, error: null }));
    })();
    return () => {
      control.abort();
      clearTimeout(timer);
    };
  }, [url]);

  return { lines: lines.current, ...state };
}
