import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { components } from "../../api/schema";
import { renderProjectRoutes } from "../../test/render";
import { promptsRoutes } from "./routes";
import { promptText } from "./shared";

const fakeApi = vi.hoisted(async () => (await import("../../test/fakeApi")).installFakeApi());

type Schemas = components["schemas"];
const V1 = "/api/v1/acme/demo";
const at = "2026-12-01T10:00:00Z";

afterEach(async () => (await fakeApi).reset());

function version(n: number, prompt: string, labels: string[]): Schemas["PromptVersion"] {
  return { id: `id-${n}`, project_id: "p1", name: "support/greet", version: n, type: "text", prompt, labels, created_at: at, updated_at: at };
}

const versions: Schemas["PromptVersionList"] = {
  versions: [version(2, "Hello {{name}}!\nBe brief.", ["latest", "production"]), version(1, "Hi {{name}}.\nBe brief.", [])],
};

const usage: Schemas["PromptGenerationPage"] = {
  data: [],
  meta: { page: 1, limit: 1, total_items: 3, total_pages: 3 },
  versions: [
    { version: 2, generations: 2, latency_p50: 1.2, latency_p99: 2, total_cost: 0.5, scores: { quality: 0.75 } },
    { version: 1, generations: 1, latency_p50: 0.8, latency_p99: 0.8, total_cost: 0.1, scores: {} },
  ],
};

const generations: Schemas["PromptGenerationPage"] = {
  data: [{ id: "g-1", trace_id: "tr-1", name: "answer", prompt_version: 2, model: "gpt-4o-mini", start_time: at, latency: 1.2, total_cost: 0.25, scores: [{ name: "quality", value: 0.75 }] }],
  meta: { page: 1, limit: 50, total_items: 1, total_pages: 1 },
  versions: [],
};

test("the prompts list links each prompt, folders kept in its path", async () => {
  const api = await fakeApi;
  const meta: Schemas["PromptMeta"] = { name: "support/greet", type: "text", versions: [1, 2], labels: ["latest", "production"], tags: ["support"], last_updated_at: at };
  api.on("GET", `${V1}/prompts`, () => ({ data: [meta], meta: { page: 1, limit: 100, total_items: 1, total_pages: 1 } }) satisfies Schemas["PromptMetaPage"]);
  renderProjectRoutes(promptsRoutes, "/projects/acme/demo/prompts");
  const table = await screen.findByRole("table", { name: "Prompts" });
  expect(within(table).getByRole("link", { name: "support/greet" })).toHaveAttribute("href", "/projects/acme/demo/prompts/support/greet");
  expect(within(table).getByText("production")).toBeInTheDocument();
});

test("a prompt shows its versions, the changes between two and the generations of one", async () => {
  const api = await fakeApi;
  api.on("GET", `${V1}/prompt-versions/support%2Fgreet`, () => versions);
  api.on("GET", `${V1}/prompt-generations/support%2Fgreet`, (request) => (request.query.get("version") ? generations : usage));
  renderProjectRoutes(promptsRoutes, "/projects/acme/demo/prompts/support/greet");
  const table = await screen.findByRole("table", { name: "Versions" });
  const newest = within(table).getAllByRole("row")[1];
  expect(newest).toHaveAttribute("data-version", "2");
  expect(within(newest).getByText("quality 0.75")).toBeInTheDocument();
  const diff = screen.getByLabelText("Changes from v1 to v2");
  expect(within(diff).getByText("- Hi {{name}}.")).toBeInTheDocument();
  expect(within(diff).getByText("+ Hello {{name}}!")).toBeInTheDocument();
  const used = await screen.findByRole("table", { name: "Generations of v2" });
  expect(within(used).getByRole("link", { name: "answer" })).toHaveAttribute("href", "/projects/acme/demo/traces/tr-1");

  await userEvent.click(within(table).getByRole("button", { name: "Show v1" }));
  expect(await screen.findByLabelText("Changes from v2 to v1")).toBeInTheDocument();
  const sent = api.requests.filter((r) => r.path.endsWith("prompt-generations/support%2Fgreet")).map((r) => r.query.get("version"));
  expect(sent).toContain("1");
});

test("a chat prompt reads as its messages and placeholders", () => {
  const chat = [
    { role: "system", content: "You help {{user}}." },
    { type: "placeholder", name: "history" },
  ];
  expect(promptText(chat)).toBe("system: You help {{user}}.\n{{history}} (placeholder)");
});
