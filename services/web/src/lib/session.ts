/** Who is signed in (`/api/v1/auth/me`), signing in with a password, and signing out. */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, unwrap } from "../api/client";
import type { components } from "../api/schema";
import type { FormValues } from "../components/Form";
import { setToken } from "./token";
import { secret, text } from "./values";

export type Me = components["schemas"]["Me"];

const ME = ["auth", "me"] as const;

/** The caller the tab's credentials act for; a 401 means nobody is signed in. */
export function useMe() {
  return useQuery({ queryKey: ME, queryFn: () => unwrap(api.GET("/api/v1/auth/me")), staleTime: Infinity });
}

/** Signs in with a user name and password (a web session), then asks every page again. */
export function useSignIn() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (values: FormValues) =>
      unwrap(api.POST("/api/v1/auth/login", { body: { username: text(values, "username"), password: secret(values, "password") ?? "" } })),
    onSuccess: async (me) => {
      setToken(null); // a token refused before would win over the new session
      client.setQueryData(ME, me);
      await client.invalidateQueries();
    },
  });
}

/** Ends the web session (or forgets the tab's token), then asks every page again. */
export function useSignOut() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (me: Me) => {
      if (me.via === "session") await unwrap(api.POST("/api/v1/auth/logout"));
      setToken(null);
    },
    onSuccess: () => client.resetQueries(),
  });
}
