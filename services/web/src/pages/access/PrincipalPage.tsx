/** One user's or service account's tokens: list, create (shown once), revoke. Yours, or anyone's for a superuser. */
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Link, useParams } from "react-router";
import { api, unwrap } from "../../api/client";
import type { components } from "../../api/schema";
import { type FieldSpec, Form } from "../../components/Form";
import { SecretOnce } from "../../components/SecretOnce";
import { EmptyState, ErrorView, Loading } from "../../components/States";
import { formatTime } from "../../lib/format";
import { instant, text } from "../../lib/values";
import { ItemTable } from "../events/ItemTable";
import { CreatePanel, useCreate } from "../events/shared";
import { keys } from "./queries";

type TokenCreated = components["schemas"]["TokenCreated"];

const FIELDS: FieldSpec[] = [
  { name: "name", label: "Name", required: true, placeholder: "ci", hint: "What the token is for, to tell tokens apart." },
  { name: "expires_at", label: "Expires", kind: "datetime-local", hint: "Empty: it lasts until revoked." },
];

export default function PrincipalPage() {
  const { name = "" } = useParams();
  const key = keys.tokens(name);
  const path = { params: { path: { name } } };
  const tokens = useQuery({ queryKey: key, queryFn: () => unwrap(api.GET("/api/v1/principals/{name}/tokens", path)) });
  const [created, setCreated] = useState<TokenCreated | null>(null);
  const create = useCreate(
    key,
    (values) => unwrap(api.POST("/api/v1/principals/{name}/tokens", { ...path, body: { name: text(values, "name"), expires_at: instant(values, "expires_at") ?? null } })),
    setCreated,
  );
  if (tokens.isPending) return <Loading what="Loading tokens" />;
  if (tokens.isError) return <ErrorView error={tokens.error} retry={() => void tokens.refetch()} />;
  const rows = tokens.data.tokens;
  return (
    <section>
      <p className="muted">
        <Link to="/users">Users</Link> /
      </p>
      <h1>{name}</h1>
      <p className="muted">Tokens sign requests as {name} (Authorization: Bearer). Each is shown once, when it is created.</p>
      {rows.length === 0 ? (
        <EmptyState title="No tokens yet" command={`axonal users token ${name} --name ci`} />
      ) : (
        <ItemTable
          label="Tokens"
          items={rows}
          columns={[
            { header: "Name", cell: (t) => t.name },
            { header: "Token", className: "mono muted", cell: (t) => `…${t.hint}` },
            { header: "Created", cell: (t) => formatTime(t.created_at) },
            { header: "Expires", cell: (t) => (t.expires_at ? formatTime(t.expires_at) : <span className="muted">never</span>) },
          ]}
          rowKey={(t) => t.id}
          rowData={(t) => ({ "data-token-id": t.id })}
          queryKey={key}
          deletion={{
            label: "Revoke",
            question: (t) => `Revoke the token ${t.name} (…${t.hint})? Requests signed with it are refused from now on.`,
            remove: (t) => unwrap(api.DELETE("/api/v1/principals/{name}/tokens/{token_id}", { params: { path: { name, token_id: t.id } } })),
          }}
        />
      )}
      <CreatePanel title="New token" open={rows.length === 0}>
        <Form label="Create token" fields={FIELDS} mutation={create} />
      </CreatePanel>
      <SecretOnce title="The new token" secret={created?.token ?? null} onClose={() => setCreated(null)}>
        {created && (
          <pre className="command" aria-label="Environment">
            <code>{`AXONAL_API_TOKEN=${created.token}\nAXONAL_API_URL=${window.location.origin}`}</code>
          </pre>
        )}
      </SecretOnce>
    </section>
  );
}
