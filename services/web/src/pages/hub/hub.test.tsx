import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { components } from "../../api/schema";
import { renderRoutes } from "../../test/render";
import { ioOf } from "./ComponentPage";
import { byComponent } from "./queries";
import { hubRoutes } from "./routes";

const fakeApi = vi.hoisted(async () => (await import("../../test/fakeApi")).installFakeApi());

type Schemas = components["schemas"];
const at = "2026-12-01T10:00:00Z";

afterEach(async () => (await fakeApi).reset());

const CONTENT = `kind: component
name: trainer
description: Trains the model.
inputs:
- {name: lr, type: float, value: 0.1, isOptional: true, description: learning rate}
- {name: data, type: str}
outputs:
- {name: loss, type: float}
run: {kind: job, container: {image: python}}
`;

function version(tag: string, extra: Partial<Schemas["HubComponentInfo"]> = {}): Schemas["HubComponentInfo"] {
  return { owner: "acme", name: "trainer", tag, builtin: false, digest: "d".repeat(64), description: "Trains the model.", inputs: ["lr", "data"], outputs: ["loss"], latest: false, pushed_at: at, ...extra };
}

const v2 = version("v2", { latest: true });
const v1 = version("v1");
const tensorboard = version("latest", { owner: "axonal", name: "tensorboard", builtin: true, latest: true, description: "Tensorboard." });

test("the hub lists each component once with its tags, the latest marked", async () => {
  const api = await fakeApi;
  api.on("GET", "/api/v1/hub/components", () => ({ components: [v2, v1, tensorboard] }) satisfies Schemas["ComponentList"]);
  renderRoutes(hubRoutes, "/hub");
  const table = await screen.findByRole("table", { name: "Components" });
  const trainer = within(table).getByRole("row", { name: /acme\/trainer/ });
  expect(within(trainer).getByRole("link", { name: "v2 (latest)" })).toBeInTheDocument();
  expect(within(trainer).getByRole("link", { name: "v1" })).toBeInTheDocument();
  const builtin = within(table).getByRole("row", { name: /axonal\/tensorboard/ });
  expect(within(builtin).getByText("built-in")).toBeInTheDocument();
});

test("a component's page shows the chosen tag's inputs, outputs and YAML", async () => {
  const api = await fakeApi;
  api.on("GET", "/api/v1/hub/components", () => ({ components: [v2, v1] }));
  api.on("GET", "/api/v1/hub/resolve", (request) => ({ ...(request.query.get("ref")?.endsWith(":v1") ? v1 : v2), content: CONTENT, created: false }) satisfies Schemas["HubComponent"]);
  renderRoutes(hubRoutes, "/hub/acme/trainer");
  expect(await screen.findByRole("heading", { name: "acme/trainer:v2" })).toBeInTheDocument();
  expect(api.sent("GET", "/api/v1/hub/resolve")[0].query.get("ref")).toBe("acme/trainer");
  const inputs = screen.getByRole("table", { name: "Inputs" });
  expect(within(inputs).getByRole("row", { name: /lr float 0\.1 learning rate/ })).toBeInTheDocument();
  expect(within(inputs).getByRole("row", { name: /data required str/ })).toBeInTheDocument();
  expect(within(screen.getByRole("table", { name: "Outputs" })).getByText("loss")).toBeInTheDocument();
  expect(screen.getByLabelText("Component YAML")).toHaveTextContent("name: trainer");

  await userEvent.click(within(screen.getByRole("navigation", { name: "Tags" })).getByRole("link", { name: "v1" }));
  expect(await screen.findByRole("heading", { name: "acme/trainer:v1" })).toBeInTheDocument();
  expect(api.sent("GET", "/api/v1/hub/resolve").at(-1)?.query.get("ref")).toBe("acme/trainer:v1");
});

test("an unknown component shows the api's message", async () => {
  const { fail } = await import("../../test/fakeApi");
  const api = await fakeApi;
  api.on("GET", "/api/v1/hub/components", () => ({ components: [] }));
  api.on("GET", "/api/v1/hub/resolve", () => fail(404, { code: "not_found", message: "unknown hub component `acme/nope`" }));
  renderRoutes(hubRoutes, "/hub/acme/nope");
  expect(await screen.findByRole("alert")).toHaveTextContent("unknown hub component `acme/nope`");
});

test("versions group by component and a YAML without IO has none", () => {
  expect(byComponent([v2, v1, tensorboard]).map((c) => [c.owner, c.name, c.versions.length])).toEqual([
    ["acme", "trainer", 2],
    ["axonal", "tensorboard", 1],
  ]);
  expect(ioOf("not: [valid")).toEqual({ inputs: [], outputs: [] });
  expect(ioOf(CONTENT).inputs.map((io) => io.name)).toEqual(["lr", "data"]);
});
