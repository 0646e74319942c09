/** A page that failed to load or render: said in words, never a blank page. */
import { isRouteErrorResponse, Link, useRouteError } from "react-router";

export function RouteError() {
  const error = useRouteError();
  const message = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`
    : error instanceof Error
      ? error.message
      : String(error);
  return (
    <div className="state error" role="alert">
      <strong>This page failed</strong>
      <p>{message}</p>
      <Link to="/">Back to the projects</Link>
    </div>
  );
}
