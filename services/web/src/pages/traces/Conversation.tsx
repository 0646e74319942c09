/** Chat messages as a conversation: who said what, images, and the tools they called. */
import { JsonView } from "../../components/JsonView";
import { type Message, type Part, toConversation } from "./conversation";

function PartView({ part }: { part: Part }) {
  if (part.kind === "text") return <pre className="text">{part.text}</pre>;
  if (part.kind === "image")
    return (
      <a href={part.url} target="_blank" rel="noreferrer" className="msg-image">
        {part.url.startsWith("data:") ? "image (inline)" : part.url}
      </a>
    );
  return <JsonView value={part.value} />;
}

function MessageView({ message }: { message: Message }) {
  return (
    <li className={`msg msg-${message.role}`} data-role={message.role}>
      <div className="msg-role">
        {message.role}
        {message.name && <span className="muted"> · {message.name}</span>}
        {message.toolCallId && <span className="muted"> · answers {message.toolCallId}</span>}
      </div>
      {message.parts.map((part, i) => (
        <PartView key={i} part={part} />
      ))}
      {message.toolCalls.map((call, i) => (
        <div key={call.id ?? i} className="tool-call" data-tool={call.name}>
          <span className="muted">calls</span> <code>{call.name}</code>
          {call.id && <span className="muted"> ({call.id})</span>}
          <JsonView value={call.arguments} />
        </div>
      ))}
    </li>
  );
}

export function Conversation({ messages, label }: { messages: Message[]; label: string }) {
  return (
    <ol className="conversation" aria-label={label}>
      {messages.map((message, i) => (
        <MessageView key={i} message={message} />
      ))}
    </ol>
  );
}

/** An input or output: a conversation when it is chat messages, else pretty-printed JSON. */
export function IoView({ label, value }: { label: string; value: unknown }) {
  const messages = toConversation(value);
  return (
    <div className="io" aria-label={label} role="group">
      <h3>{label}</h3>
      {messages ? <Conversation messages={messages} label={`${label} messages`} /> : value == null ? <span className="muted">–</span> : <JsonView value={value} />}
    </div>
  );
}
