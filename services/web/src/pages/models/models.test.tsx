import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { components } from "../../api/schema";
import { renderProjectRoutes } from "../../test/render";
import { modelsRoutes } from "./routes";

const fakeApi = vi.hoisted(async () => (await import("../../test/fakeApi")).installFakeApi());

type Schemas = components["schemas"];
const V1 = "/api/v1/acme/demo";
const at = "2026-12-01T10:00:00Z";
const RUN = "a".repeat(32);
const DATA = "d".repeat(64);

afterEach(async () => (await fakeApi).reset());

const churn: Schemas["RegisteredModel"] = {
  project: "acme/demo",
  name: "churn",
  description: "Who leaves",
  protected_aliases: ["production"],
  aliases: { production: 1, staging: 2 },
  latest_version: 2,
  created_at: at,
};

function version(n: number, aliases: string[]): Schemas["ModelVersion"] {
  return {
    project: "acme/demo", model: "churn", version: n, run_uuid: RUN, artifact: "model", sha256: String(n).repeat(64),
    path: `acme/demo/.sha256/${String(n).repeat(64)}`, size: 2048, aliases, archived: false, created_at: at,
  }; // prettier-ignore
}

function lineage(n: number): Schemas["LineageGraph"] {
  return {
    nodes: [
      { id: `model:churn/${n}`, kind: "model_version", label: `churn v${n}`, attributes: {} },
      { id: `run:${RUN}`, kind: "run", label: RUN, attributes: { name: "train", status: "succeeded", params: { epochs: 3 }, metrics: { auc: 0.91 } } },
      { id: `dataset:train.csv@${DATA}`, kind: "dataset", label: `train.csv@${DATA.slice(0, 12)}`, attributes: {} },
    ],
    edges: [
      { source: `run:${RUN}`, target: `model:churn/${n}`, relation: "registered" },
      { source: `dataset:train.csv@${DATA}`, target: `run:${RUN}`, relation: "read" },
    ],
  };
}

test("the models list shows each model's latest version and aliases, linking to the model", async () => {
  const api = await fakeApi;
  api.on("GET", `${V1}/models`, () => ({ models: [churn] }) satisfies Schemas["RegisteredModelList"]);
  api.on("GET", `${V1}/models/churn`, () => churn);
  api.on("GET", `${V1}/models/churn/versions`, () => ({ versions: [version(2, ["staging"]), version(1, ["production"])] }));
  api.on("GET", `${V1}/models/churn/versions/:n/lineage`, (_, match) => lineage(Number(match[1])));
  api.on("GET", `${V1}/models/churn/versions/:n/scores`, (_, match) => ({ model: "churn", version: Number(match[1]), scores: [] }));
  api.on("GET", `${V1}/models/churn/gates`, () => ({ model: "churn", gates: {} }));
  renderProjectRoutes(modelsRoutes, "/projects/acme/demo/models");
  const table = await screen.findByRole("table", { name: "Models" });
  const row = within(table).getByText("churn").closest("tr") as HTMLElement;
  expect(within(row).getByText("v2")).toBeInTheDocument();
  expect(within(row).getByText("production: v1")).toBeInTheDocument();
  await userEvent.click(within(table).getByRole("link", { name: "churn" }));
  expect(await screen.findByRole("heading", { name: "churn" })).toBeInTheDocument();
  expect(screen.getByRole("table", { name: "Versions" })).toBeInTheDocument();
});

test("a model's page shows the production version's lineage first, and another on request", async () => {
  const api = await fakeApi;
  api.on("GET", `${V1}/models/churn`, () => churn);
  api.on("GET", `${V1}/models/churn/versions`, () => ({ versions: [version(2, ["staging"]), version(1, ["production"])] }));
  api.on("GET", `${V1}/models/churn/versions/:n/lineage`, (_, match) => lineage(Number(match[1])));
  api.on("GET", `${V1}/models/churn/versions/:n/scores`, (_, match) => ({ model: "churn", version: Number(match[1]), scores: [] }));
  api.on("GET", `${V1}/models/churn/gates`, () => ({ model: "churn", gates: {} }));
  renderProjectRoutes(modelsRoutes, "/projects/acme/demo/models/churn");
  expect(await screen.findByRole("heading", { name: "Lineage of v1" })).toBeInTheDocument();
  const edges = screen.getByRole("table", { name: "Lineage edges" });
  const read = within(edges).getByText("read by").closest("tr") as HTMLElement;
  expect(within(read).getByText(`train.csv@${DATA.slice(0, 12)}`)).toBeInTheDocument();
  expect(within(read).getByRole("link", { name: "train" })).toHaveAttribute("href", `/projects/acme/demo/runs/${RUN}`);
  const runs = screen.getByRole("table", { name: "Runs" });
  expect(within(runs).getByText("auc = 0.91")).toBeInTheDocument();
  expect(within(runs).getByText("epochs = 3")).toBeInTheDocument();

  const versions = screen.getByRole("table", { name: "Versions" });
  const second = within(versions).getByText("v2").closest("tr") as HTMLElement;
  await userEvent.click(within(second).getByRole("button", { name: "Lineage" }));
  expect(await screen.findByRole("heading", { name: "Lineage of v2" })).toBeInTheDocument();
  expect(api.sent("GET", `${V1}/models/churn/versions/2/lineage`)).toHaveLength(1);
});

test("no models yet says how to register one", async () => {
  const api = await fakeApi;
  api.on("GET", `${V1}/models`, () => ({ models: [] }));
  renderProjectRoutes(modelsRoutes, "/projects/acme/demo/models");
  expect(await screen.findByText("No registered models yet")).toBeInTheDocument();
});

test("a version's evaluation scores show against the gates of the model's aliases", async () => {
  const api = await fakeApi;
  const score = (name: string, value: number, minute: number): Schemas["ModelVersionScore"] => ({
    name, value, run_uuid: RUN, dataset: `holdout.csv@${DATA}`, recorded_at: `2026-12-01T10:0${minute}:00Z`,
  }); // prettier-ignore
  api.on("GET", `${V1}/models/churn`, () => churn);
  api.on("GET", `${V1}/models/churn/versions`, () => ({ versions: [version(2, ["staging"]), version(1, ["production"])] }));
  api.on("GET", `${V1}/models/churn/versions/:n/lineage`, (_, match) => lineage(Number(match[1])));
  api.on("GET", `${V1}/models/churn/versions/:n/scores`, (_, match) => ({
    model: "churn",
    version: Number(match[1]),
    scores: [score("auc", 0.93, 2), score("auc", 0.85, 1), score("latency_ms", 80, 1)],
  }));
  api.on("GET", `${V1}/models/churn/gates`, () => ({
    model: "churn",
    gates: { production: [{ metric: "auc", op: ">=", threshold: 0.9 }], staging: [{ metric: "latency_ms", op: "<", threshold: 50 }] },
  }));
  renderProjectRoutes(modelsRoutes, "/projects/acme/demo/models/churn");
  expect(await screen.findByRole("heading", { name: "Evaluations of v1" })).toBeInTheDocument();
  const gates = screen.getByRole("list", { name: "Promotion gates" });
  const production = within(gates).getByText("production").closest("li") as HTMLElement;
  expect(production).toHaveTextContent("requires auc >= 0.9: met");
  const staging = within(gates).getByText("staging").closest("li") as HTMLElement;
  expect(staging).toHaveTextContent("requires latency_ms < 50: not met");
  const table = screen.getByRole("table", { name: "Evaluation scores" });
  expect(within(table).getAllByRole("row")).toHaveLength(4);
  expect(within(table).getAllByText("holdout.csv")[0]).toHaveAttribute("title", `holdout.csv@${DATA}`);
});
