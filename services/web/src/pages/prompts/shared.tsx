/** What the prompt pages share: the api's shapes, labels as chips, a prompt as text. */
import type { components } from "../../api/schema";
import "./prompts.css";

type Schemas = components["schemas"];
export type PromptMeta = Schemas["PromptMeta"];
export type PromptVersion = Schemas["PromptVersion"];
export type PromptGenerationPage = Schemas["PromptGenerationPage"];

export function Labels({ labels }: { labels: string[] }) {
  return (
    <ul className="chips" aria-label="Labels">
      {labels.map((label) => (
        <li key={label} className={`chip${label === "production" ? " chip-production" : ""}`} data-label={label}>
          {label}
        </li>
      ))}
    </ul>
  );
}

/** A version's prompt as lines: the text, or each chat message as `role: content`. */
export function promptText(prompt: unknown): string {
  if (typeof prompt === "string") return prompt;
  if (!Array.isArray(prompt)) return JSON.stringify(prompt, null, 2);
  return prompt
    .map((m: { type?: string; name?: string; role?: string; content?: string }) =>
      m.type === "placeholder" ? `{{${m.name}}} (placeholder)` : `${m.role}: ${m.content}`,
    )
    .join("\n");
}

/** A prompt's name in a page path: each folder encoded, the slashes kept. */
export function promptPath(name: string): string {
  return name.split("/").map(encodeURIComponent).join("/");
}
