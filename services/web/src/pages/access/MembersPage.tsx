/** Who holds which role in the project: its own grants, and those its organization gives. */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, unwrap } from "../../api/client";
import { type FieldSpec, Form } from "../../components/Form";
import { EmptyState, ErrorView, Loading } from "../../components/States";
import { useProject } from "../../lib/params";
import { text } from "../../lib/values";
import { ItemTable } from "../events/ItemTable";
import { CreatePanel, useCreate } from "../events/shared";
import { grant, keys, type Member, ROLES, type RoleName } from "./queries";

const GRANT_FIELDS: FieldSpec[] = [
  { name: "name", label: "User or service account", required: true, placeholder: "ada" },
  { name: "role", label: "Role", kind: "select", options: ROLES, initial: "viewer", hint: "A project role overrides the organization's; none takes it away here." },
];

/** A project grant's role, changed in place; the api's refusal is shown next to it. */
function RoleChoice({ member, owner, project }: { member: Member; owner: string; project: string }) {
  const client = useQueryClient();
  const change = useMutation({
    mutationFn: (role: RoleName) => grant(owner, project, member.principal, role),
    onSuccess: (list) => client.setQueryData(keys.members(owner, project), list),
  });
  return (
    <>
      <select
        aria-label={`Role of ${member.principal}`}
        value={member.role}
        disabled={change.isPending}
        onChange={(e) => change.mutate(e.target.value as RoleName)}
      >
        {ROLES.map((role) => (
          <option key={role} value={role}>
            {role}
          </option>
        ))}
      </select>
      {change.error && (
        <small className="error" role="alert">
          {" "}
          {change.error.message}
        </small>
      )}
    </>
  );
}

export default function MembersPage() {
  const { owner, project } = useProject();
  const key = keys.members(owner, project);
  const members = useQuery({
    queryKey: key,
    queryFn: () => unwrap(api.GET("/api/v1/{owner}/{project}/members", { params: { path: { owner, project } } })),
  });
  const create = useCreate(key, (values) => grant(owner, project, text(values, "name"), text(values, "role") as RoleName));
  if (members.isPending) return <Loading what="Loading members" />;
  if (members.isError) return <ErrorView error={members.error} retry={() => void members.refetch()} />;
  const rows = members.data.members;
  return (
    <section>
      <h1>Members</h1>
      <p className="muted">
        Roles in {owner}/{project}: viewers read, members write, admins also manage its keys, secrets and roles, owners also grant owner and delete it. A role
        given in the organization {owner} holds in each of its projects, unless the project grants another.
      </p>
      {rows.length === 0 ? (
        <EmptyState title="Nobody holds a role here yet" command={`axonal members set NAME viewer -p ${owner}/${project}`}>
          Superusers see every project. Grant a role to let a user or a service account in.
        </EmptyState>
      ) : (
        <ItemTable
          label="Members"
          items={rows}
          columns={[
            { header: "Name", cell: (m) => m.principal },
            { header: "Kind", className: "muted", cell: (m) => (m.kind === "service" ? "service account" : "user") },
            { header: "Role", cell: (m) => (m.project ? <RoleChoice member={m} owner={owner} project={project} /> : m.role) },
            { header: "Granted in", cell: (m) => (m.project ? "this project" : `organization ${owner}`) },
          ]}
          rowKey={(m) => `${m.principal}:${m.project ?? ""}`}
          rowData={(m) => ({ "data-member": m.principal, "data-role": m.role, "data-granted": m.project ? "project" : "organization" })}
          queryKey={key}
          deletion={{
            label: "Remove",
            allowed: (m) => m.project != null,
            question: (m) => `Remove ${m.principal}'s role in ${owner}/${project}? A role the organization gives still holds.`,
            remove: (m) => grant(owner, project, m.principal, null),
          }}
        />
      )}
      <CreatePanel title="Grant a role" open={rows.length === 0}>
        <Form label="Grant role" fields={GRANT_FIELDS} mutation={create} />
      </CreatePanel>
    </section>
  );
}
