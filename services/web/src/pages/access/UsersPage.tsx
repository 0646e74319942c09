/** Users and service accounts (superusers only): list them, and create one. */
import { useQuery } from "@tanstack/react-query";
import { Link } from "react-router";
import { api, unwrap } from "../../api/client";
import { type FieldSpec, Form, type FormValues } from "../../components/Form";
import { ErrorView, Loading } from "../../components/States";
import { formatTime } from "../../lib/format";
import { flag, optional, secret, text } from "../../lib/values";
import { ItemTable } from "../events/ItemTable";
import { CreatePanel, useCreate } from "../events/shared";
import { keys } from "./queries";

const isUser = (values: FormValues) => values.kind === "user";

const FIELDS: FieldSpec[] = [
  { name: "name", label: "Name", required: true, placeholder: "ada", hint: "Letters, digits, dots, dashes and underscores." },
  { name: "kind", label: "Kind", kind: "select", options: ["user", "service"], initial: "user", hint: "A service account signs in with tokens only." },
  { name: "email", label: "Email", when: isUser },
  { name: "password", label: "Password", kind: "password", autoComplete: "new-password", when: isUser, hint: "At least 8 characters." },
  { name: "superuser", label: "Superuser (every project, and these pages)", kind: "checkbox" },
];

/** The api's body for a new principal. */
export function principalBody(values: FormValues) {
  const kind = values.kind === "service" ? "service" : "user";
  return {
    name: text(values, "name"),
    kind,
    email: optional(values, "email") ?? null,
    password: kind === "user" ? (secret(values, "password") ?? null) : null,
    superuser: flag(values, "superuser"),
  } as const;
}

export default function UsersPage() {
  const key = keys.principals();
  const principals = useQuery({ queryKey: key, queryFn: () => unwrap(api.GET("/api/v1/principals")) });
  const create = useCreate(key, (values) => unwrap(api.POST("/api/v1/principals", { body: principalBody(values) })));
  if (principals.isPending) return <Loading what="Loading users" />;
  if (principals.isError) return <ErrorView error={principals.error} retry={() => void principals.refetch()} />;
  return (
    <section>
      <h1>Users</h1>
      <p className="muted">Users sign in with a password or a token; service accounts with tokens only. Roles in projects are granted on each project's Members page.</p>
      <ItemTable
        label="Users"
        items={principals.data.principals}
        columns={[
          { header: "Name", cell: (p) => <Link to={`/users/${encodeURIComponent(p.name)}`}>{p.name}</Link> },
          { header: "Kind", className: "muted", cell: (p) => (p.kind === "service" ? "service account" : "user") },
          { header: "Email", cell: (p) => p.email ?? <span className="muted">–</span> },
          { header: "Superuser", cell: (p) => (p.superuser ? "yes" : "") },
          { header: "Created", cell: (p) => formatTime(p.created_at) },
        ]}
        rowKey={(p) => p.id}
        rowData={(p) => ({ "data-principal": p.name, "data-kind": p.kind })}
        queryKey={key}
      />
      <CreatePanel title="New user or service account" open={false}>
        <Form label="Create user" fields={FIELDS} mutation={create} />
      </CreatePanel>
    </section>
  );
}
