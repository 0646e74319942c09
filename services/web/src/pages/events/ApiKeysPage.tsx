/** The project's API keys (Langfuse SDK, OTLP exporters): list, create (the secret shown once), revoke. */
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { api, unwrap } from "../../api/client";
import type { components } from "../../api/schema";
import { type FieldSpec, Form } from "../../components/Form";
import { SecretOnce } from "../../components/SecretOnce";
import { EmptyState, ErrorView, Loading } from "../../components/States";
import { formatTime } from "../../lib/format";
import { useProject } from "../../lib/params";
import { optional } from "../../lib/values";
import { ItemTable } from "./ItemTable";
import { keys } from "./queries";
import { CreatePanel, useCreate } from "./shared";

type ApiKeyCreated = components["schemas"]["ApiKeyCreated"];

const KEY_FIELDS: FieldSpec[] = [{ name: "note", label: "Note", placeholder: "CI traces", hint: "What the key is for, to tell keys apart." }];

/** The environment the Langfuse SDK reads, for the key just created. */
function SdkEnvironment({ created }: { created: ApiKeyCreated }) {
  return (
    <pre className="command" aria-label="SDK environment">
      <code>
        {`LANGFUSE_PUBLIC_KEY=${created.public_key}\nLANGFUSE_SECRET_KEY=${created.secret_key}\nLANGFUSE_HOST=${window.location.origin}`}
      </code>
    </pre>
  );
}

export default function ApiKeysPage() {
  const { owner, project } = useProject();
  const key = keys.apiKeys(owner, project);
  const path = { params: { path: { owner, project } } };
  const apiKeys = useQuery({
    queryKey: key,
    queryFn: () => unwrap(api.GET("/api/v1/projects/{owner}/{project}/api-keys", path)),
  });
  const [created, setCreated] = useState<ApiKeyCreated | null>(null);
  const create = useCreate(
    key,
    (values) => unwrap(api.POST("/api/v1/projects/{owner}/{project}/api-keys", { ...path, body: { note: optional(values, "note") ?? null } })),
    setCreated,
  );
  if (apiKeys.isPending) return <Loading what="Loading API keys" />;
  if (apiKeys.isError) return <ErrorView error={apiKeys.error} retry={() => void apiKeys.refetch()} />;
  const rows = apiKeys.data.keys;
  return (
    <section>
      <h1>API keys</h1>
      <p className="muted">The Langfuse SDK and OpenTelemetry exporters sign their requests with a key pair. Secrets are shown once, when a key is created.</p>
      {rows.length === 0 ? (
        <EmptyState title="No API keys yet" command={`axonal keys create --note ci -p ${owner}/${project}`} />
      ) : (
        <ItemTable
          label="API keys"
          items={rows}
          columns={[
            { header: "Public key", className: "mono", cell: (k) => k.public_key },
            { header: "Secret", className: "mono muted", cell: (k) => `…${k.secret_hint}` },
            { header: "Note", cell: (k) => k.note ?? <span className="muted">–</span> },
            { header: "Acts as", cell: (k) => `${k.owner ?? "—"} (${k.role})` },
            { header: "Created", cell: (k) => formatTime(k.created_at) },
          ]}
          rowKey={(k) => k.id}
          rowData={(k) => ({ "data-public-key": k.public_key })}
          queryKey={key}
          deletion={{
            label: "Revoke",
            question: (k) => `Revoke ${k.public_key}? Requests signed with it are refused from now on.`,
            remove: (k) =>
              unwrap(
                api.DELETE("/api/v1/projects/{owner}/{project}/api-keys/{public_key}", { params: { path: { owner, project, public_key: k.public_key } } }),
              ),
          }}
        />
      )}
      <CreatePanel title="New API key" open={rows.length === 0}>
        <Form label="Create API key" fields={KEY_FIELDS} mutation={create} />
      </CreatePanel>
      <SecretOnce title="The new key's secret" secret={created?.secret_key ?? null} onClose={() => setCreated(null)}>
        {created && <SdkEnvironment created={created} />}
      </SecretOnce>
    </section>
  );
}
