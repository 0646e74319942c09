import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { components } from "../../api/schema";
import { renderProjectRoutes } from "../../test/render";
import { describe as describeRule } from "./EvaluatorsPage";
import { evalsRoutes } from "./routes";
import { limits } from "./Templates";

const fakeApi = vi.hoisted(async () => (await import("../../test/fakeApi")).installFakeApi());

type Schemas = components["schemas"];
const E = "/api/v1/acme/demo/evals";
const at = "2026-12-01T10:00:00Z";

afterEach(async () => (await fakeApi).reset());

function rule(id: string, name: string, fields: Partial<Schemas["EvalRule"]> = {}): Schemas["EvalRule"] {
  return {
    id, project_id: "p1", project: "acme/demo", name, template_id: "t1", template: "helpful", connection: "openai",
    model: "gpt-4o-mini", target: "trace", filter: { names: ["answer"], tags: [], environments: [], types: [], metadata: {} },
    mapping: { answer: "output" }, sampling: 1, delay_seconds: 0, max_concurrency: 8, active: true, created_at: at, updated_at: at,
    ...fields,
  }; // prettier-ignore
}

function template(id: string, name: string, fields: Partial<Schemas["EvalTemplate"]> = {}): Schemas["EvalTemplate"] {
  return { id, project_id: "p1", name, kind: "llm", prompt: "Answer: {{answer}}", prompt_label: "production", score_name: name, created_at: at, ...fields };
}

const runtime: Schemas["CodeRuntime"] = { python: "python3", image: "python:3.11-slim", timeout_seconds: 120, cpu: "1", memory: "1Gi" };

function job(id: string, state: Schemas["EvalJob"]["state"], fields: Partial<Schemas["EvalJob"]> = {}): Schemas["EvalJob"] {
  return { id, project_id: "p1", rule_id: "r1", trace_id: `trace-${id}`, state, attempts: 1, due_at: at, created_at: at, updated_at: at, ...fields };
}

test("a rule's filter reads in a few words", () => {
  expect(describeRule(rule("r1", "helpful-answers"))).toBe("name answer");
  const sampled = rule("r2", "sampled", {
    sampling: 0.2,
    delay_seconds: 30,
    filter: { names: [], tags: ["prod"], environments: [], types: [], metadata: { tier: "gold" } },
  });
  expect(describeRule(sampled)).toBe('every trace · tags prod · metadata {"tier":"gold"} · 20% · after 30 s');
  const scored = rule("r3", "negative", {
    filter: { names: ["answer"], scores: [{ name: "feedback", operator: "<", value: 0 }, { name: "tone", operator: "=", value: "rude" }] },
  });
  expect(describeRule(scored)).toBe("name answer · score feedback < 0 · score tone = rude");
  expect(describeRule(rule("r4", "experiments", { filter: { datasets: ["qa", "math"] } }))).toBe("experiments of qa | math");
});

test("a code evaluator's runtime reads as its interpreter and limits", () => {
  expect(limits(runtime)).toBe("python3 · 120 s · 1 cpu · 1Gi");
  expect(limits({ ...runtime, timeout_seconds: 30, cpu: "0.5", memory: "256Mi" })).toBe("python3 · 30 s · 0.5 cpu · 256Mi");
});

test("templates list a code evaluator with its limits and source, and LLM prompts inline or from the registry", async () => {
  const api = await fakeApi;
  api.on("GET", `${E}/rules`, () => ({ data: [] }));
  api.on("GET", `${E}/templates`, () => ({
    data: [
      template("t1", "helpful"),
      template("t2", "graded", { prompt: null, prompt_name: "qa-judge", prompt_label: "staging" }),
      template("t3", "contains-four", { kind: "code", prompt: null, code: "def evaluate(answer):\n    return '4' in answer\n", runtime }),
    ],
  }) satisfies Schemas["EvalTemplateList"]);
  renderProjectRoutes(evalsRoutes, "/projects/acme/demo/evaluators");
  const table = await screen.findByRole("table", { name: "Evaluator templates" });
  const code = table.querySelector('tr[data-template="contains-four"]') as HTMLElement;
  expect(code).toHaveTextContent("code · python3 · 120 s · 1 cpu · 1Gi");
  expect(within(code).getByText(/def evaluate\(answer\)/).tagName).toBe("PRE");
  expect(table.querySelector('tr[data-template="helpful"]')).toHaveTextContent("LLM · inline prompt");
  expect(table.querySelector('tr[data-template="graded"]')).toHaveTextContent("LLM · registry prompt qa-judge (staging)");
  expect(screen.getByText("No evaluation rules yet")).toBeInTheDocument();
});

test("a rule scores with a code or LLM template, or sends to a queue, linked by its name", async () => {
  const api = await fakeApi;
  api.on("GET", `${E}/rules`, () => ({
    data: [
      rule("r1", "helpful-answers"),
      rule("r2", "code-check", { template: "contains-four", connection: null, model: null }),
      rule("r3", "to-review", { template: null, template_id: null, connection: null, model: null, queue_id: "q1" }),
    ],
  }));
  api.on("GET", `${E}/jobs`, () => ({ data: [] }));
  api.on("GET", "/api/v1/acme/demo/annotation-queues", () => ({
    data: [{ id: "q1", project_id: "p1", name: "negative feedback", score_config_ids: [], created_at: at, updated_at: at }],
    meta: { page: 1, limit: 100, total_items: 1, total_pages: 1 },
  }) satisfies Schemas["QueuePage"]);
  renderProjectRoutes(evalsRoutes, "/projects/acme/demo/evaluators");
  const rules = await screen.findByRole("table", { name: "Evaluation rules" });
  expect(rules.querySelector('tr[data-rule="helpful-answers"]')).toHaveTextContent("score: helpful · openai gpt-4o-mini");
  expect(rules.querySelector('tr[data-rule="code-check"]')).toHaveTextContent("score: contains-four · code");
  const queued = rules.querySelector('tr[data-rule="to-review"]') as HTMLElement;
  const link = await within(queued).findByRole("link", { name: "negative feedback" });
  expect(link).toHaveAttribute("href", "/projects/acme/demo/annotation-queues/q1");
  expect(queued).toHaveTextContent("queue: negative feedback");
});

test("a code job links to its run, a queue job to its queue, an experiment's job names its item", async () => {
  const api = await fakeApi;
  const run = "0123456789abcdef0123456789abcdef";
  api.on("GET", `${E}/rules`, () => ({
    data: [
      rule("r1", "code-check", { template: "contains-four", connection: null, model: null }),
      rule("r2", "to-review", { template: null, template_id: null, connection: null, model: null, queue_id: "q1" }),
    ],
  }));
  api.on("GET", `${E}/jobs`, () => ({
    data: [
      job("j1", "running", { run_uuid: run }),
      job("j2", "succeeded", { run_uuid: run, score_value: 1, dataset_item_id: "item-0001-x", dataset_run_id: "drun-0001-x" }),
      job("j3", "succeeded", { rule_id: "r2", queue_item_id: "qi1" }),
    ],
  }));
  renderProjectRoutes(evalsRoutes, "/projects/acme/demo/evaluators");
  const table = await screen.findByRole("table", { name: "Jobs" });
  for (const id of ["j1", "j2"]) {
    const row = table.querySelector(`tr[data-job="${id}"]`) as HTMLElement;
    expect(within(row).getByRole("link", { name: "run 01234567" })).toHaveAttribute("href", `/projects/acme/demo/runs/${run}`);
  }
  expect(table.querySelector('tr[data-job="j2"]')).toHaveTextContent("dataset item item-000 · run drun-000");
  const queued = table.querySelector('tr[data-job="j3"]') as HTMLElement;
  expect(within(queued).getByText("to-review")).toBeInTheDocument();
  expect(within(queued).getByRole("link", { name: "queued" })).toHaveAttribute("href", "/projects/acme/demo/annotation-queues/q1");
});

test("rules list their jobs: a score, or why a job failed with the judge's answer kept", async () => {
  const api = await fakeApi;
  api.on("GET", `${E}/rules`, () => ({ data: [rule("r1", "helpful-answers"), rule("r2", "tone", { active: false })] }));
  const jobs = [
    job("j1", "succeeded", { score_value: 0.8, score_id: "s1" }),
    job("j2", "failed", { reason: "variable answer: output has no field 'answer'", answer: { score: "high" }, attempts: 2 }),
  ];
  api.on("GET", `${E}/jobs`, (request) => {
    const state = request.query.get("state");
    return { data: jobs.filter((j) => !state || j.state === state) } satisfies Schemas["EvalJobList"];
  });
  renderProjectRoutes(evalsRoutes, "/projects/acme/demo/evaluators");
  const rules = await screen.findByRole("table", { name: "Evaluation rules" });
  const tone = within(rules).getByText("tone").closest("tr") as HTMLElement;
  expect(within(tone).getByText("paused")).toBeInTheDocument();

  const table = await screen.findByRole("table", { name: "Jobs" });
  const done = table.querySelector('tr[data-job="j1"]') as HTMLElement;
  expect(within(done).getByText("0.8")).toBeInTheDocument();
  expect(within(done).getByRole("link", { name: "trace-j1" })).toHaveAttribute("href", "/projects/acme/demo/traces/trace-j1");
  const failed = table.querySelector('tr[data-job="j2"]') as HTMLElement;
  expect(failed).toHaveTextContent("variable answer: output has no field 'answer'");
  expect(within(failed).getByText(/"score": "high"/)).toBeInTheDocument();

  await userEvent.selectOptions(screen.getByRole("combobox", { name: "Job state" }), "failed");
  await vi.waitFor(() => expect(screen.getByRole("table", { name: "Jobs" }).querySelectorAll("tbody tr")).toHaveLength(1));
});

test("pausing a rule asks the api and shows it paused", async () => {
  const api = await fakeApi;
  let active = true;
  api.on("GET", `${E}/rules`, () => ({ data: [rule("r1", "helpful-answers", { active })] }));
  api.on("GET", `${E}/jobs`, () => ({ data: [] }));
  api.on("POST", `${E}/rules/r1/deactivate`, () => {
    active = false;
    return rule("r1", "helpful-answers", { active });
  });
  renderProjectRoutes(evalsRoutes, "/projects/acme/demo/evaluators");
  const row = (await screen.findByRole("table", { name: "Evaluation rules" })).querySelector('tr[data-rule="helpful-answers"]') as HTMLElement;
  await userEvent.click(within(row).getByRole("button", { name: "Pause" }));
  expect(await within(row).findByText("paused")).toBeInTheDocument();
  expect(screen.getByText(/No jobs yet/)).toBeInTheDocument();
});
