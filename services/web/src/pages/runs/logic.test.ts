import { pollWhileLive } from "../../lib/runStatus";
import { parseDelimited } from "./csv";
import { readFilters, toQuery, writeFilters } from "./filters";
import { matcher, matching, pieces } from "./logSearch";
import { SseParser } from "./sse";
import { allowedVerbs } from "./statuses";
import { runTabs } from "./tabs";

test("filters round-trip through the query string and become the api's query", () => {
  const params = new URLSearchParams("status=running&kind=dag&tag=cv&tag=gpu&name=res&after=2026-12-01T10:00&page=3&status=nonsense");
  const filters = readFilters(params);
  expect(filters).toMatchObject({ status: "running", kind: "dag", tags: ["cv", "gpu"], name: "res", createdAfter: "2026-12-01T10:00", page: 3 });
  expect(readFilters(writeFilters(filters))).toEqual(filters);
  const query = toQuery(filters);
  expect(query).toMatchObject({ status: "running", kind: "dag", tag: ["cv", "gpu"], name: "res", limit: 50, offset: 100 });
  expect(query.created_after).toBe(new Date("2026-12-01T10:00").toISOString());
  expect(query.created_before).toBeUndefined();
  expect(readFilters(new URLSearchParams("status=bogus&page=-2"))).toEqual({ tags: [], page: 1 });
});

test("SSE events are parsed across chunk boundaries, CRLF split in two included", () => {
  const parser = new SseParser();
  const events = [
    ...parser.feed(": keep-alive\r\nid: 1\r\nevent: log\r\ndata: {\"seq\":"),
    ...parser.feed("1}\r"),
    ...parser.feed("\n\r\nid: 2\nevent: log\ndata: a\ndata: b\n"),
  ];
  expect(events).toEqual([{ event: "log", data: '{"seq":1}', id: "1" }]);
  expect(parser.feed("\n")).toEqual([{ event: "log", data: "a\nb", id: "2" }]);
  expect(parser.lastEventId).toBe("2");
  expect(parser.feed("event: done\ndata: {}\n\n")).toEqual([{ event: "done", data: "{}", id: undefined }]);
  expect(parser.lastEventId).toBe("2"); // an event without an id keeps the last one
});

test("log search finds lines in any case and cuts them into highlighted pieces", () => {
  const pattern = matcher("Err.");
  const lines = [{ line: "ok" }, { line: "an err. here, ERR. there" }, { line: "error" }];
  expect(matching(lines, pattern)).toEqual([1]);
  expect(pieces("err. first", pattern)[0]).toEqual({ text: "err.", match: true }); // no state left by a search
  expect(matching(lines, matcher(""))).toEqual([0, 1, 2]);
  expect(pieces(lines[1].line, pattern)).toEqual([
    { text: "an ", match: false },
    { text: "err.", match: true },
    { text: " here, ", match: false },
    { text: "ERR.", match: true },
    { text: " there", match: false },
  ]);
});

test("CSV and TSV: quotes, doubled quotes, separators and line ends inside quotes, a row limit", () => {
  const text = 'a,b\r\n"x, y","say ""hi"""\n"multi\nline",3\nlast,row';
  expect(parseDelimited(text, ",", 10)).toEqual([
    ["a", "b"],
    ["x, y", 'say "hi"'],
    ["multi\nline", "3"],
    ["last", "row"],
  ]);
  expect(parseDelimited(text, ",", 2)).toHaveLength(2);
  expect(parseDelimited("a\tb\n1\t2\n", "\t", 10)).toEqual([["a", "b"], ["1", "2"]]);
});

test("a run's status decides its actions and whether to poll", () => {
  const run = { is_approved: true, managed: true, compiled: {} };
  expect(allowedVerbs({ ...run, status: "running" })).toEqual(["stop", "delete"]);
  expect(allowedVerbs({ ...run, status: "created", is_approved: false })).toEqual(["stop", "approve", "skip", "delete"]);
  expect(allowedVerbs({ ...run, status: "failed" })).toEqual(["resume", "restart", "delete"]);
  expect(allowedVerbs({ ...run, status: "succeeded" })).toEqual(["restart", "delete"]);
  expect(allowedVerbs({ ...run, status: "failed", managed: false })).toEqual(["delete"]);
  expect(pollWhileLive(["succeeded", "running"])).toBe(2000);
  expect(pollWhileLive(["succeeded", "failed"])).toBe(false);
});

test("tabs: metrics always, graph for a DAG, trials for a matrix", () => {
  const paths = (kind: string) => runTabs({ kind }).map((t) => t.path);
  expect(paths("job")).toEqual(["", "logs", "metrics", "artifacts", "lineage"]);
  expect(paths("dag")).toContain("graph");
  expect(paths("dag")).not.toContain("trials");
  expect(paths("matrix")).toContain("trials");
  expect(paths("matrix")).not.toContain("graph");
});
