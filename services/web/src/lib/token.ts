/**
 * How requests prove who sends them. A token typed into this tab (kept for its session only)
 * wins; without one, the browser sends the web session's cookie, and every write echoes the
 * session's readable CSRF cookie in a header, as the api asks.
 */
const KEY = "axonal.token";
const CSRF_COOKIE = "axonal_csrf";
const SAFE = new Set(["GET", "HEAD", "OPTIONS"]);

function getToken(): string | null {
  return sessionStorage.getItem(KEY);
}

export function setToken(token: string | null): void {
  if (token) sessionStorage.setItem(KEY, token);
  else sessionStorage.removeItem(KEY);
}

/** The web session's CSRF value, from its cookie. */
export function csrfToken(): string | null {
  const prefix = `${CSRF_COOKIE}=`;
  const found = document.cookie.split("; ").find((c) => c.startsWith(prefix));
  return found ? decodeURIComponent(found.slice(prefix.length)) : null;
}

/** The headers a request of `method` needs: the token's, or a session write's CSRF echo. */
export function credentialHeaders(method = "GET"): Record<string, string> {
  const token = getToken();
  if (token) return { Authorization: `Bearer ${token}` };
  const csrf = SAFE.has(method.toUpperCase()) ? null : csrfToken();
  return csrf ? { "x-csrf-token": csrf } : {};
}
