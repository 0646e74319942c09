/**
 * The frame of every page: the header (who is signed in, the theme switch), the project's
 * navigation, and the page, or the sign-in page when nobody is signed in.
 */
import { useState } from "react";
import { Link, NavLink, Outlet, useParams } from "react-router";
import { ApiError } from "../api/client";
import { type Me, useMe, useSignOut } from "../lib/session";
import { applyTheme, initialTheme, type Theme } from "../lib/theme";
import { SignIn } from "./SignIn";
import { Loading } from "./States";

/** The pages of a project, in the order of the side navigation. */
export const PROJECT_PAGES: { path: string; label: string; group: string }[] = [
  { path: "runs", label: "Runs", group: "ML" },
  { path: "schedules", label: "Schedules", group: "ML" },
  { path: "compare", label: "Compare", group: "ML" },
  { path: "models", label: "Models", group: "ML" },
  { path: "traces", label: "Traces", group: "LLM" },
  { path: "sessions", label: "Sessions", group: "LLM" },
  { path: "users", label: "Users", group: "LLM" },
  { path: "scores", label: "Scores", group: "LLM" },
  { path: "prompts", label: "Prompts", group: "LLM" },
  { path: "datasets", label: "Datasets", group: "LLM" },
  { path: "evaluators", label: "Evaluators", group: "LLM" },
  { path: "annotation-queues", label: "Annotation queues", group: "LLM" },
  { path: "webhooks", label: "Webhooks", group: "Events" },
  { path: "connections", label: "Connections", group: "Events" },
  { path: "automations", label: "Automations", group: "Events" },
  { path: "alerts", label: "Alerts", group: "Events" },
  { path: "llm-models", label: "Model prices", group: "Settings" },
  { path: "api-keys", label: "API keys", group: "Settings" },
  { path: "members", label: "Members", group: "Settings" },
  { path: "data", label: "Data", group: "Settings" },
  { path: "audit", label: "Audit log", group: "Settings" },
];

function ThemeSwitch() {
  const [theme, setTheme] = useState<Theme>(() => {
    const t = initialTheme();
    applyTheme(t);
    return t;
  });
  const next: Theme = theme === "dark" ? "light" : "dark";
  return (
    <button
      type="button"
      className="ghost"
      aria-label={`Switch to the ${next} theme`}
      onClick={() => {
        applyTheme(next);
        setTheme(next);
      }}
    >
      {theme === "dark" ? "☀︎" : "☾"}
    </button>
  );
}

/** Who is signed in, a superuser's way to the users, and signing out. */
function UserMenu({ me }: { me: Me }) {
  const signOut = useSignOut();
  const own = me.via === "session" || me.via === "token";
  return (
    <span className="user-menu" data-signed-in={me.name}>
      {me.superuser && (
        <NavLink to="/users" className="ghost">
          Users
        </NavLink>
      )}
      <span className="muted">Signed in as</span>
      {own ? (
        <Link to={`/users/${encodeURIComponent(me.name)}`} title="Your tokens">
          {me.name}
        </Link>
      ) : (
        <strong>{me.name}</strong>
      )}
      <button type="button" className="ghost" disabled={signOut.isPending} onClick={() => signOut.mutate(me)}>
        Sign out
      </button>
    </span>
  );
}

function ProjectNav({ owner, project }: { owner: string; project: string }) {
  const groups = [...new Set(PROJECT_PAGES.map((p) => p.group))];
  return (
    <nav className="side" aria-label="Project">
      <Link to={`/projects/${owner}/${project}/runs`} className="project-name">
        {owner}/{project}
      </Link>
      {groups.map((group) => (
        <div key={group} className="side-group">
          <div className="side-title">{group}</div>
          {PROJECT_PAGES.filter((p) => p.group === group).map((p) => (
            <NavLink key={p.path} to={`/projects/${owner}/${project}/${p.path}`}>
              {p.label}
            </NavLink>
          ))}
        </div>
      ))}
    </nav>
  );
}

export function Layout() {
  const { owner, project } = useParams();
  const me = useMe();
  const signedOut = me.error instanceof ApiError && me.error.status === 401 ? me.error : null;
  return (
    <div className="app">
      <header className="top">
        <Link to="/" className="brand">
          Axonal
        </Link>
        <span className="spacer" />
        <NavLink to="/hub" className="ghost">
          Hub
        </NavLink>
        <a href="/docs" className="ghost">
          API docs
        </a>
        <ThemeSwitch />
        {me.data && !signedOut && <UserMenu me={me.data} />}
      </header>
      <div className="body">
        {owner && project && me.isSuccess && <ProjectNav owner={owner} project={project} />}
        <main id="main">{me.isPending ? <Loading /> : signedOut ? <SignIn reason={signedOut.message} /> : <Outlet />}</main>
      </div>
    </div>
  );
}
