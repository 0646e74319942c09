import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { components } from "../../api/schema";
import { renderProjectRoutes } from "../../test/render";
import { describe as describeRule } from "./EvaluatorsPage";
import { evalsRoutes } from "./routes";

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
