/** Two versions of a prompt, line by line: what the newer one removed and added. */
import { diffLines } from "diff";
import { promptText, type PromptVersion } from "./shared";

export function VersionDiff({ from, to }: { from: PromptVersion; to: PromptVersion }) {
  const parts = diffLines(promptText(from.prompt), promptText(to.prompt));
  return (
    <pre className="diff" aria-label={`Changes from v${from.version} to v${to.version}`}>
      {parts.map((part, i) =>
        part.added ? (
          <ins key={i}>{part.value.replace(/\n$/, "").replace(/^/gm, "+ ")}</ins>
        ) : part.removed ? (
          <del key={i}>{part.value.replace(/\n$/, "").replace(/^/gm, "- ")}</del>
        ) : (
          <span key={i}>{part.value.replace(/\n$/, "").replace(/^/gm, "  ")}</span>
        ),
      )}
    </pre>
  );
}
