import { useMutation } from "@tanstack/react-query";
import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { ApiError } from "../api/client";
import { renderPage } from "../test/render";
import { FieldError, type FieldSpec, Form, type FormValues, problemsOf } from "./Form";

const names = ["url", "events", "smtp.host", "smtp"];

test("the api's details go next to the fields they name, the rest to the form", () => {
  const refused = new ApiError(422, "invalid", "the request is not valid", [
    { location: "body.url", message: "Value error, url must be an absolute http:// or https:// URL" },
    { location: "body.events.0", message: "unknown event type 'run.done_'" },
    { location: "body.smtp.host", message: "Field required" },
    { location: "body", message: "Value error, a slack connection needs url" },
    { location: "query.limit", message: "too big" },
  ]);
  const problems = problemsOf(refused, names);
  expect(problems.fields).toEqual({
    url: ["url must be an absolute http:// or https:// URL"],
    events: ["unknown event type 'run.done_'"],
    "smtp.host": ["Field required"],
  });
  expect(problems.other).toEqual(["a slack connection needs url", "query.limit: too big"]);
  expect(problems.message).toBe("the request is not valid");
});

test("a value the form could not read is shown next to its field", () => {
  expect(problemsOf(new FieldError("events", "not valid JSON"), names)).toEqual({ message: null, fields: { events: ["not valid JSON"] }, other: [] });
  expect(problemsOf(null, names).message).toBeNull();
});

const FIELDS: FieldSpec[] = [
  { name: "url", label: "URL", required: true },
  { name: "kind", label: "Kind", kind: "select", options: ["slack", "email"], initial: "slack" },
  { name: "smtp.host", label: "SMTP host", when: (values) => values.kind === "email" },
];

function Harness({ send }: { send: (values: FormValues) => Promise<unknown> }) {
  const mutation = useMutation({ mutationFn: send });
  return <Form label="Create thing" fields={FIELDS} mutation={mutation} />;
}

test("a form sends its shown fields, waits with submit disabled, and shows the api's refusal", async () => {
  let answer: (error: ApiError) => void = () => undefined;
  const sent: FormValues[] = [];
  const send = (values: FormValues) => {
    sent.push(values);
    return new Promise((_, reject) => {
      answer = reject;
    });
  };
  renderPage(<Harness send={send} />);
  expect(screen.queryByLabelText("SMTP host")).not.toBeInTheDocument();
  await userEvent.selectOptions(screen.getByLabelText("Kind"), "email");
  await userEvent.type(screen.getByLabelText("SMTP host"), "mail.example.com");
  await userEvent.type(screen.getByLabelText(/URL/), "gopher://x");
  await userEvent.click(screen.getByRole("button", { name: "Create thing" }));
  expect(sent).toEqual([{ url: "gopher://x", kind: "email", "smtp.host": "mail.example.com" }]);
  expect(screen.getByRole("button", { name: "Working…" })).toBeDisabled();
  answer(new ApiError(422, "invalid", "the request is not valid", [{ location: "body.url", message: "url must be http(s)" }]));
  expect(await screen.findByText("url must be http(s)")).toBeInTheDocument();
  expect(screen.getByLabelText(/URL/)).toHaveAttribute("aria-invalid", "true");
  expect(screen.getByLabelText(/URL/)).toHaveAccessibleDescription("url must be http(s)");
  expect(screen.getByRole("alert")).toHaveTextContent("the request is not valid");
  expect(screen.getByRole("button", { name: "Create thing" })).toBeEnabled();
});
