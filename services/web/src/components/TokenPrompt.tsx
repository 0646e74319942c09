/** The other way in: a token (a user's, a service account's, or AXONAL_API_TOKEN) for this tab's session. */
import { useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { setToken } from "../lib/token";

export function TokenPrompt() {
  const [value, setValue] = useState("");
  const client = useQueryClient();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setToken(value.trim() || null);
    void client.invalidateQueries();
  };
  return (
    <form className="state token" onSubmit={submit} aria-label="API token">
      <strong>Or use an API token</strong>
      <p>A user's or service account's token, or AXONAL_API_TOKEN. It is kept for this browser tab only.</p>
      <input type="password" value={value} onChange={(e) => setValue(e.target.value)} aria-label="Token" />
      <button type="submit">Use token</button>
    </form>
  );
}
