/** Asks for the api token (AXONAL_API_TOKEN) and keeps it for this tab's session. */
import { useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { setToken } from "../lib/token";

export function TokenPrompt({ reason }: { reason?: string }) {
  const [value, setValue] = useState("");
  const client = useQueryClient();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setToken(value.trim() || null);
    void client.invalidateQueries();
  };
  return (
    <form className="state token" onSubmit={submit} aria-label="API token">
      <strong>This api needs a token</strong>
      {reason && <p>{reason}</p>}
      <p>Paste the value of AXONAL_API_TOKEN. It is kept for this browser tab only.</p>
      <input type="password" value={value} onChange={(e) => setValue(e.target.value)} aria-label="Token" autoFocus />
      <button type="submit">Use token</button>
    </form>
  );
}
