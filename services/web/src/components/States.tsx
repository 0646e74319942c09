/** What a page shows while it loads, when it fails and when there is nothing yet. */
import type { ReactNode } from "react";
import { ApiError } from "../api/client";
import { SignIn } from "./SignIn";

export function Loading({ what = "Loading" }: { what?: string }) {
  return (
    <div className="state" role="status" aria-live="polite">
      {what}…
    </div>
  );
}

/** An error as a readable message (titled `forbidden` for a 403); a 401 asks the user to sign in instead. */
export function ErrorView({ error, retry, forbidden }: { error: unknown; retry?: () => void; forbidden?: string }) {
  if (error instanceof ApiError && error.status === 401) return <SignIn reason={error.message} />;
  const message = error instanceof Error ? error.message : String(error);
  const status = error instanceof ApiError ? error.status : 0;
  const title = status === 404 ? "Not found" : status === 403 && forbidden ? forbidden : "Something went wrong";
  return (
    <div className="state error" role="alert">
      <strong>{title}</strong>
      <p>{message}</p>
      {retry && (
        <button type="button" onClick={retry}>
          Try again
        </button>
      )}
    </div>
  );
}

/** An empty list that tells a new user what to run next. */
export function EmptyState({ title, children, command }: { title: string; children?: ReactNode; command?: string }) {
  return (
    <div className="state empty">
      <strong>{title}</strong>
      {children && <p>{children}</p>}
      {command && (
        <pre className="command">
          <code>{command}</code>
        </pre>
      )}
    </div>
  );
}
