import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { ApiError, errorOf } from "../api/client";
import { formatCost, formatDuration } from "../lib/format";
import { renderPage } from "../test/render";
import { JsonView } from "./JsonView";
import { ErrorView } from "./States";
import { StatusBadge } from "./StatusBadge";

test("an api error body becomes its message", () => {
  const error = errorOf(404, { code: "not_found", message: "no run abc in acme/demo" });
  expect(error.message).toBe("no run abc in acme/demo");
  expect(error.code).toBe("not_found");
  expect(errorOf(502, undefined).message).toBe("The api answered 502.");
});

test("a 401 asks the user to sign in, or for a token, instead of showing an error", () => {
  renderPage(<ErrorView error={new ApiError(401, "unauthorized", "a valid bearer token is required")} />);
  expect(screen.getByRole("form", { name: "Sign in" })).toBeInTheDocument();
  expect(screen.getByLabelText("Token")).toBeInTheDocument();
  expect(screen.getByText("a valid bearer token is required")).toBeInTheDocument();
});

test("other errors are shown in words", () => {
  renderPage(<ErrorView error={new ApiError(400, "invalid", "limit must be at most 1000")} />);
  expect(screen.getByRole("alert")).toHaveTextContent("limit must be at most 1000");
});

test("JSON is a collapsible tree, and JSON in a string is parsed", async () => {
  renderPage(<JsonView value={'{"messages": [{"role": "user", "content": "hi"}], "n": 2}'} />);
  expect(screen.getByText('"hi"')).toBeInTheDocument();
  const [root] = screen.getAllByRole("button", { expanded: true });
  await userEvent.click(root);
  expect(screen.queryByText('"hi"')).not.toBeInTheDocument();
  expect(screen.getByText(/2 items/)).toBeInTheDocument();
});

test("status badges carry their status", () => {
  renderPage(<StatusBadge status="upstream_failed" />);
  expect(screen.getByText("upstream failed")).toHaveAttribute("data-status", "upstream_failed");
});

test("durations and costs read naturally", () => {
  expect(formatDuration(0.0123)).toBe("12 ms");
  expect(formatDuration(75)).toBe("1m 15s");
  expect(formatCost(0.00045)).toBe("$0.00045");
});
