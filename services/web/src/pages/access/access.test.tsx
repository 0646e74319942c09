import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { components } from "../../api/schema";
import { fail } from "../../test/fakeApi";
import { renderProjectRoutes, renderRoutes } from "../../test/render";
import { membersRoutes, usersRoutes } from "./routes";
import { principalBody } from "./UsersPage";

const fakeApi = vi.hoisted(async () => (await import("../../test/fakeApi")).installFakeApi());

type Schemas = components["schemas"];
const MEMBERS = "/api/v1/acme/demo/members";
const at = "2026-12-01T10:00:00Z";

afterEach(async () => (await fakeApi).reset());

const granted: Schemas["MemberList"] = {
  members: [
    { principal: "org-admin", kind: "user", role: "admin", project: null },
    { principal: "ada", kind: "user", role: "viewer", project: "demo" },
  ],
};

test("members list the project's grants and its organization's; a grant, a change and a removal", async () => {
  const api = await fakeApi;
  let list = granted;
  api.on("GET", MEMBERS, () => list);
  api.on("PUT", `${MEMBERS}/:name`, (request, [, name]) => {
    const { role } = request.body as Schemas["Grant"];
    const others = list.members.filter((m) => !(m.principal === name && m.project));
    list = { members: role ? [...others, { principal: name, kind: "service", role, project: "demo" }] : others };
    return list;
  });
  renderProjectRoutes(membersRoutes, "/projects/acme/demo/members");
  const table = await screen.findByRole("table", { name: "Members" });
  const org = table.querySelector('[data-member="org-admin"]') as HTMLElement;
  expect(org).toHaveAttribute("data-granted", "organization");
  expect(within(org).queryByRole("combobox")).not.toBeInTheDocument(); // changed in the organization
  expect(within(org).queryByRole("button", { name: "Remove" })).not.toBeInTheDocument();

  await userEvent.click(screen.getByText("Grant a role"));
  const form = screen.getByRole("form", { name: "Grant role" });
  await userEvent.type(within(form).getByLabelText(/User or service account/), "ci-bot");
  await userEvent.selectOptions(within(form).getByLabelText("Role"), "member");
  await userEvent.click(within(form).getByRole("button", { name: "Grant role" }));
  await waitFor(() => expect(table.querySelector('[data-member="ci-bot"]')).toHaveAttribute("data-role", "member"));
  expect(api.sent("PUT", `${MEMBERS}/ci-bot`)[0].body).toEqual({ role: "member" });

  await userEvent.selectOptions(within(table).getByLabelText("Role of ada"), "admin");
  await waitFor(() => expect(table.querySelector('[data-member="ada"]')).toHaveAttribute("data-role", "admin"));

  const row = table.querySelector('[data-member="ada"]') as HTMLElement;
  await userEvent.click(within(row).getByRole("button", { name: "Remove" }));
  const dialog = screen.getByRole("dialog", { name: "Remove" });
  await userEvent.click(within(dialog).getByRole("button", { name: "Remove" }));
  await waitFor(() => expect(table.querySelector('[data-member="ada"]')).toBeNull());
  expect(api.sent("PUT", `${MEMBERS}/ada`).at(-1)?.body).toEqual({ role: null });
});

test("a refused change shows the api's message next to the role", async () => {
  const api = await fakeApi;
  api.on("GET", MEMBERS, () => granted);
  api.on("PUT", `${MEMBERS}/:name`, () => fail(403, { code: "forbidden", message: "ada is not an owner here: only owners grant owner" }));
  renderProjectRoutes(membersRoutes, "/projects/acme/demo/members");
  const table = await screen.findByRole("table", { name: "Members" });
  await userEvent.selectOptions(within(table).getByLabelText("Role of ada"), "owner");
  expect(await within(table).findByRole("alert")).toHaveTextContent("only owners grant owner");
});

test("a project one may not see says so in the api's words", async () => {
  const api = await fakeApi;
  api.on("GET", MEMBERS, () => fail(404, { code: "not_found", message: "project acme/demo does not exist, or ada has no access to it" }));
  renderProjectRoutes(membersRoutes, "/projects/acme/demo/members");
  expect(await screen.findByRole("alert")).toHaveTextContent("ada has no access to it");
});

const principals: Schemas["PrincipalList"] = {
  principals: [
    { id: "p1", name: "admin", kind: "user", superuser: true, email: null, created_at: at },
    { id: "p2", name: "ci-bot", kind: "service", superuser: false, email: null, created_at: at },
  ],
};

test("users are listed and created; a service account has no password", async () => {
  const api = await fakeApi;
  api.on("GET", "/api/v1/principals", () => principals);
  api.on("POST", "/api/v1/principals", (request) => ({ ...(request.body as Schemas["CreatePrincipalRequest"]), id: "p3", created_at: at }));
  renderRoutes(usersRoutes, "/users");
  const table = await screen.findByRole("table", { name: "Users" });
  expect(table.querySelector('[data-principal="ci-bot"]')).toHaveAttribute("data-kind", "service");

  await userEvent.click(screen.getByText("New user or service account"));
  const form = screen.getByRole("form", { name: "Create user" });
  await userEvent.type(within(form).getByLabelText(/Name/), "ada");
  await userEvent.type(within(form).getByLabelText(/Password/), "correct horse");
  await userEvent.click(within(form).getByRole("button", { name: "Create user" }));
  await waitFor(() => expect(api.sent("POST", "/api/v1/principals")).toHaveLength(1));
  expect(api.sent("POST", "/api/v1/principals")[0].body).toEqual({ name: "ada", kind: "user", email: null, password: "correct horse", superuser: false });
  expect(principalBody({ name: "etl", kind: "service", password: "ignored", superuser: true })).toEqual({
    name: "etl",
    kind: "service",
    email: null,
    password: null,
    superuser: true,
  });
});

test("the users page tells one who is not a superuser so", async () => {
  const api = await fakeApi;
  api.on("GET", "/api/v1/principals", () => fail(403, { code: "forbidden", message: "ada is not a superuser; this needs one" }));
  renderRoutes(usersRoutes, "/users");
  expect(await screen.findByRole("alert")).toHaveTextContent("ada is not a superuser; this needs one");
});

test("a token is shown once when created, and can be revoked", async () => {
  const api = await fakeApi;
  const token: Schemas["TokenInfo"] = { id: "t1", name: "ci", principal: "ci-bot", hint: "a1b2", created_at: at, expires_at: null };
  let tokens: Schemas["TokenInfo"][] = [];
  api.on("GET", "/api/v1/principals/ci-bot/tokens", () => ({ tokens }));
  api.on("POST", "/api/v1/principals/ci-bot/tokens", () => {
    tokens = [token];
    return { ...token, token: "axt_secret-value" } satisfies Schemas["TokenCreated"];
  });
  api.on("DELETE", "/api/v1/principals/ci-bot/tokens/t1", () => {
    tokens = [];
    return { tokens };
  });
  renderRoutes(usersRoutes, "/users/ci-bot");
  expect(await screen.findByText("No tokens yet")).toBeInTheDocument();
  const form = screen.getByRole("form", { name: "Create token" });
  await userEvent.type(within(form).getByLabelText(/Name/), "ci");
  await userEvent.click(within(form).getByRole("button", { name: "Create token" }));
  const dialog = await screen.findByRole("dialog", { name: "The new token" });
  expect(within(dialog).getByTestId("secret")).toHaveTextContent("axt_secret-value");
  expect(api.sent("POST", "/api/v1/principals/ci-bot/tokens")[0].body).toEqual({ name: "ci", expires_at: null });
  await userEvent.click(within(dialog).getByRole("button", { name: "I have stored it" }));
  expect(screen.queryByTestId("secret")).not.toBeInTheDocument();

  const table = await screen.findByRole("table", { name: "Tokens" });
  expect(within(table).getByText("…a1b2")).toBeInTheDocument();
  await userEvent.click(within(table).getByRole("button", { name: "Revoke" }));
  await userEvent.click(within(screen.getByRole("dialog", { name: "Revoke" })).getByRole("button", { name: "Revoke" }));
  expect(await screen.findByText("No tokens yet")).toBeInTheDocument();
});
