/** The sign-in page: a user name and password start a web session; a token is the other way in. */
import { type FieldSpec, Form } from "./Form";
import { useSignIn } from "../lib/session";
import { TokenPrompt } from "./TokenPrompt";

const FIELDS: FieldSpec[] = [
  { name: "username", label: "User name", required: true, autoComplete: "username" },
  { name: "password", label: "Password", kind: "password", required: true, autoComplete: "current-password" },
];

/** The page; `reason` is the api's word on credentials it refused (an expired session, a revoked token). */
export function SignIn({ reason }: { reason?: string }) {
  const signIn = useSignIn();
  const refused = reason && !reason.startsWith("no credentials") ? reason : null;
  return (
    <section className="sign-in" aria-labelledby="sign-in-title">
      <h1 id="sign-in-title">Sign in to Axonal</h1>
      {refused && <p className="muted">{refused}</p>}
      <Form label="Sign in" fields={FIELDS} mutation={signIn} />
      <TokenPrompt />
    </section>
  );
}
