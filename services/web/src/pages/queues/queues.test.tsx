import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { components } from "../../api/schema";
import { renderProjectRoutes } from "../../test/render";
import { fail } from "../../test/fakeApi";
import { queuesRoutes } from "./routes";
import { completionScores } from "./shared";

const fakeApi = vi.hoisted(async () => (await import("../../test/fakeApi")).installFakeApi());

type Schemas = components["schemas"];
const Q = "/api/v1/acme/demo/annotation-queues";
const at = "2026-12-01T10:00:00Z";

afterEach(async () => (await fakeApi).reset());

const queue: Schemas["AnnotationQueue"] = { id: "q1", project_id: "p1", name: "review", description: "negative feedback", score_config_ids: ["c1", "c2"], created_at: at, updated_at: at };

function config(id: string, name: string, fields: Partial<Schemas["ScoreConfig"]>): Schemas["ScoreConfig"] {
  return { id, project_id: "p1", name, data_type: "NUMERIC", is_archived: false, created_at: at, updated_at: at, ...fields };
}

const configs = [
  config("c1", "quality", { min_value: 0, max_value: 1 }),
  config("c2", "tone", { data_type: "CATEGORICAL", categories: [{ label: "good", value: 1 }, { label: "bad", value: 0 }] }),
];

function item(id: string, objectId: string): Schemas["QueueItem"] {
  return { id, queue_id: "q1", project_id: "p1", object_id: objectId, object_type: "TRACE", status: "PENDING", created_at: at, updated_at: at };
}

test("the queues list links each queue to its review screen", async () => {
  const api = await fakeApi;
  api.on("GET", Q, () => ({ data: [queue], meta: { page: 1, limit: 100, total_items: 1, total_pages: 1 } }) satisfies Schemas["QueuePage"]);
  renderProjectRoutes(queuesRoutes, "/projects/acme/demo/annotation-queues");
  const table = await screen.findByRole("table", { name: "Annotation queues" });
  expect(within(table).getByRole("link", { name: "review" })).toHaveAttribute("href", "/projects/acme/demo/annotation-queues/q1");
  expect(within(table).getByText("negative feedback")).toBeInTheDocument();
});

test("a reviewer scores the next item, a refusal is shown, then the item is completed", async () => {
  const api = await fakeApi;
  let pending = [item("i1", "tr-1"), item("i2", "tr-2")];
  let refuse = true;
  api.on("GET", `${Q}/q1`, () => queue);
  api.on("GET", `${Q}/q1/score-configs`, () => ({ data: configs }) satisfies Schemas["ScoreConfigList"]);
  api.on("GET", `${Q}/q1/items`, () => ({ data: pending, meta: { page: 1, limit: 100, total_items: pending.length, total_pages: 1 } }) satisfies Schemas["QueueItemPage"]);
  api.on("POST", `${Q}/q1/items/:item/complete`, (_request, match) => {
    if (refuse) {
      refuse = false;
      return fail(400, { code: "invalid", message: "quality: Value exceeds maximum value of 1 defined in config" });
    }
    const done = pending.find((i) => i.id === match[1]);
    pending = pending.filter((i) => i.id !== match[1]);
    return { item: { ...done!, status: "COMPLETED" }, score_ids: ["s1", "s2"] } satisfies Schemas["CompletedQueueItem"];
  });
  renderProjectRoutes(queuesRoutes, "/projects/acme/demo/annotation-queues/q1");
  const form = await screen.findByRole("form", { name: "Review" });
  expect(within(form).getByRole("link", { name: "tr-1" })).toHaveAttribute("href", "/projects/acme/demo/traces/tr-1");
  expect(screen.getByText("2 pending")).toBeInTheDocument();

  await userEvent.type(within(form).getByLabelText("quality"), "3");
  await userEvent.selectOptions(within(form).getByLabelText("tone"), "good");
  await userEvent.click(within(form).getByRole("button", { name: "Complete" }));
  expect(await screen.findByText(/Value exceeds maximum value of 1/)).toBeInTheDocument();

  await userEvent.clear(within(form).getByLabelText("quality"));
  await userEvent.type(within(form).getByLabelText("quality"), "0.5");
  await userEvent.click(within(form).getByRole("button", { name: "Complete" }));
  const next = await screen.findByRole("link", { name: "tr-2" });
  expect(next).toBeInTheDocument();
  const sent = api.sent("POST", `${Q}/q1/items/i1/complete`).map((r) => r.body);
  expect(sent[1]).toEqual({ scores: [{ config_id: "c1", value: 0.5, comment: null }, { config_id: "c2", value: "good", comment: null }] });
});

test("a completion sends only the configs given a value, booleans as 0 or 1", () => {
  const boolean = config("c3", "correct", { data_type: "BOOLEAN", categories: [{ label: "True", value: 1 }, { label: "False", value: 0 }] });
  expect(completionScores([...configs, boolean], { c1: "", c2: "bad", c3: "0" }, "ok")).toEqual([
    { config_id: "c2", value: "bad", comment: "ok" },
    { config_id: "c3", value: 0, comment: "ok" },
  ]);
});
