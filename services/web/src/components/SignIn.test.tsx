import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { createMemoryRouter, RouterProvider } from "react-router";
import type { components } from "../api/schema";
import { routes } from "../routes";
import { fail } from "../test/fakeApi";
import { Loading } from "./States";

const fakeApi = vi.hoisted(async () => (await import("../test/fakeApi")).installFakeApi());

type Schemas = components["schemas"];
const MEMBERS = "/api/v1/acme/demo/members";
const ada: Schemas["Me"] = { name: "ada", via: "session", superuser: false, org_roles: {}, project_roles: { "acme/demo": "admin" } };
const members: Schemas["MemberList"] = { members: [{ principal: "ada", kind: "user", role: "admin", project: "demo" }] };

/** The api of a tab: refuses until signed in, as the session cookie would say; login sets the CSRF cookie. */
async function sessionApi() {
  const api = await fakeApi;
  let signedIn = false;
  const unauthorized = () => fail(401, { code: "unauthorized", message: "no credentials; sign in" });
  api.on("GET", "/api/v1/auth/me", () => (signedIn ? ada : unauthorized()));
  api.on("GET", MEMBERS, () => (signedIn ? members : unauthorized()));
  api.on("PUT", `${MEMBERS}/:name`, () => members);
  api.on("POST", "/api/v1/auth/login", (request) => {
    const { username, password } = request.body as Schemas["Credentials"];
    if (username !== "ada" || password !== " s3cret ") return fail(401, { code: "unauthorized", message: "wrong user name or password" });
    document.cookie = "axonal_csrf=csrf-1; path=/";
    signedIn = true;
    return ada;
  });
  api.on("POST", "/api/v1/auth/logout", () => {
    document.cookie = "axonal_csrf=; max-age=0; path=/";
    signedIn = false;
    return new Response(null, { status: 204 });
  });
  return api;
}

function renderApp(path: string) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const router = createMemoryRouter([{ ...routes[0], HydrateFallback: Loading }], { initialEntries: [path] });
  return render(
    <QueryClientProvider client={client}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
}

afterEach(async () => {
  (await fakeApi).reset();
  sessionStorage.clear();
  document.cookie = "axonal_csrf=; max-age=0; path=/";
});

test("a 401 shows the sign-in page; signing in asks again with the session, and writes echo the CSRF cookie", async () => {
  const api = await sessionApi();
  renderApp("/projects/acme/demo/members");
  const form = await screen.findByRole("form", { name: "Sign in" });
  expect(screen.getByRole("form", { name: "API token" })).toBeInTheDocument(); // the other way in
  expect(screen.queryByText(/no credentials/)).not.toBeInTheDocument(); // nothing went wrong yet
  expect(screen.queryByRole("navigation", { name: "Project" })).not.toBeInTheDocument();

  await userEvent.type(within(form).getByLabelText(/User name/), "ada");
  await userEvent.type(within(form).getByLabelText(/Password/), "wrong");
  await userEvent.click(within(form).getByRole("button", { name: "Sign in" }));
  expect(await within(form).findByRole("alert")).toHaveTextContent("wrong user name or password");

  await userEvent.clear(within(form).getByLabelText(/Password/));
  await userEvent.type(within(form).getByLabelText(/Password/), " s3cret ");
  await userEvent.click(within(form).getByRole("button", { name: "Sign in" }));
  const table = await screen.findByRole("table", { name: "Members" });
  expect(screen.getByRole("navigation", { name: "Project" })).toBeInTheDocument();
  expect(document.querySelector('[data-signed-in="ada"]')).toBeInTheDocument();
  const asked = api.sent("GET", "/api/v1/auth/me");
  expect(asked.length).toBeGreaterThan(1); // refused, then asked again with the session
  for (const read of [asked.at(-1)!, ...api.sent("GET", MEMBERS)]) {
    expect(read.credentials).toBe("same-origin");
    expect(read.headers.get("Authorization")).toBeNull();
    expect(read.headers.get("x-csrf-token")).toBeNull(); // reads need none
  }

  await userEvent.selectOptions(within(table).getByLabelText("Role of ada"), "owner");
  await waitFor(() => expect(api.sent("PUT", `${MEMBERS}/ada`)).toHaveLength(1));
  const [write] = api.sent("PUT", `${MEMBERS}/ada`);
  expect(write.headers.get("x-csrf-token")).toBe("csrf-1");
  expect(write.body).toEqual({ role: "owner" });

  await userEvent.click(screen.getByRole("button", { name: "Sign out" }));
  expect(await screen.findByRole("form", { name: "Sign in" })).toBeInTheDocument();
  expect(api.sent("POST", "/api/v1/auth/logout")[0].headers.get("x-csrf-token")).toBe("csrf-1");
});

test("a token in the tab's session wins over the session cookie", async () => {
  const api = await sessionApi();
  document.cookie = "axonal_csrf=csrf-1; path=/";
  sessionStorage.setItem("axonal.token", "svc-token");
  api.on("GET", "/api/v1/auth/me", () => ({ ...ada, name: "ci", via: "token" }));
  api.on("GET", MEMBERS, () => members);
  renderApp("/projects/acme/demo/members");
  const table = await screen.findByRole("table", { name: "Members" });
  await userEvent.selectOptions(within(table).getByLabelText("Role of ada"), "viewer");
  await waitFor(() => expect(api.sent("PUT", `${MEMBERS}/ada`)).toHaveLength(1));
  const [write] = api.sent("PUT", `${MEMBERS}/ada`);
  expect(write.headers.get("Authorization")).toBe("Bearer svc-token");
  expect(write.headers.get("x-csrf-token")).toBeNull();

  await userEvent.click(screen.getByRole("button", { name: "Sign out" })); // forgets the token
  await waitFor(() => expect(sessionStorage.getItem("axonal.token")).toBeNull());
  expect(api.sent("POST", "/api/v1/auth/logout")).toHaveLength(0);
});
