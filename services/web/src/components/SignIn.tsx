/** The sign-in page: a user name and password start a web session; a token is the other way in. */
import { type FieldSpec, Form } from "./Form";
import { useSignIn } from "../lib/session";
import { TokenPrompt } from "./TokenPrompt";

const FIELDS: FieldSpec[] = [
  { name: "username", label: "User name", required: true, autoComplete: "username" },
  { name: "password", label: "Password", kind: "password", required: true, autoComplete: "current-password" },
];

export function SignIn({ reason }: { reason?: string }) {
  const signIn = useSignIn();
  return (
    <section className="sign-in" aria-labelledby="sign-in-title">
      <h1 id="sign-in-title">Sign in to Axonal</h1>
      {reason && <p className="muted">{reason}</p>}
      <Form label="Sign in" fields={FIELDS} mutation={signIn} />
      <TokenPrompt />
    </section>
  );
}
