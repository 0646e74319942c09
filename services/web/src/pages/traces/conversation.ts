/** Chat messages in the OpenAI / Langfuse shapes, read into one form a page can render. */
import { parsedJson } from "../../lib/json";

export type Part = { kind: "text"; text: string } | { kind: "image"; url: string } | { kind: "data"; value: unknown };

export interface ToolCall {
  id?: string;
  name: string;
  arguments: unknown;
}

export interface Message {
  role: string;
  name?: string;
  parts: Part[];
  toolCalls: ToolCall[];
  /** The call a tool message answers. */
  toolCallId?: string;
}

type Doc = Record<string, unknown>;

const isDoc = (value: unknown): value is Doc => typeof value === "object" && value !== null && !Array.isArray(value);

function partOf(item: unknown): Part {
  if (typeof item === "string") return { kind: "text", text: item };
  if (!isDoc(item)) return { kind: "data", value: item };
  if (typeof item.text === "string" && (item.type === undefined || item.type === "text" || item.type === "input_text" || item.type === "output_text")) {
    return { kind: "text", text: item.text };
  }
  if (item.type === "image_url") {
    const image = item.image_url;
    const url = typeof image === "string" ? image : isDoc(image) && typeof image.url === "string" ? image.url : undefined;
    if (url) return { kind: "image", url };
  }
  return { kind: "data", value: item };
}

function partsOf(content: unknown): Part[] {
  if (content == null || content === "") return [];
  if (typeof content === "string") return [{ kind: "text", text: content }];
  if (Array.isArray(content)) return content.map(partOf);
  return [{ kind: "data", value: content }];
}

function toolCallOf(call: unknown): ToolCall | null {
  if (!isDoc(call)) return null;
  const fn = isDoc(call.function) ? call.function : call;
  if (typeof fn.name !== "string") return null;
  return {
    id: typeof call.id === "string" ? call.id : undefined,
    name: fn.name,
    arguments: parsedJson(fn.arguments ?? fn.input ?? call.input),
  };
}

/** Anthropic-style `tool_use` parts are tool calls too. */
function toolUses(content: unknown): ToolCall[] {
  if (!Array.isArray(content)) return [];
  return content.filter((item) => isDoc(item) && item.type === "tool_use").map(toolCallOf).filter((c) => c !== null);
}

function messageOf(doc: unknown): Message | null {
  if (!isDoc(doc) || typeof doc.role !== "string") return null;
  if (!("content" in doc) && !("tool_calls" in doc) && !("function_call" in doc)) return null;
  const uses = toolUses(doc.content);
  const content = Array.isArray(doc.content) ? doc.content.filter((item) => !(isDoc(item) && item.type === "tool_use")) : doc.content;
  const calls = [
    ...(Array.isArray(doc.tool_calls) ? doc.tool_calls : []),
    ...(doc.function_call ? [doc.function_call] : []),
  ]
    .map(toolCallOf)
    .filter((c) => c !== null);
  return {
    role: doc.role,
    name: typeof doc.name === "string" ? doc.name : undefined,
    parts: partsOf(content),
    toolCalls: [...calls, ...uses],
    toolCallId: typeof doc.tool_call_id === "string" ? doc.tool_call_id : undefined,
  };
}

/**
 * The messages of an input or output when it is a conversation: a list of messages, one
 * message, `{messages: [...]}`, or an OpenAI completion's `{choices: [{message}]}`. Null when
 * it is anything else (then it is shown as JSON).
 */
export function toConversation(value: unknown): Message[] | null {
  const data = parsedJson(value);
  if (Array.isArray(data)) {
    if (data.length === 0) return null;
    const messages = data.map(messageOf);
    return messages.every((m) => m !== null) ? (messages as Message[]) : null;
  }
  if (!isDoc(data)) return null;
  if (Array.isArray(data.messages)) return toConversation(data.messages);
  if (Array.isArray(data.choices)) {
    return toConversation(data.choices.map((choice) => (isDoc(choice) ? choice.message : undefined)));
  }
  const one = messageOf(data);
  return one ? [one] : null;
}

/** The text of a value as one line of a conversation: its messages' text, else the value. */
export function plainText(value: unknown): string | null {
  const data = parsedJson(value);
  if (data == null || data === "") return null;
  if (typeof data === "string") return data;
  const messages = toConversation(data);
  if (messages) {
    const last = messages[messages.length - 1];
    const text = last.parts.flatMap((p) => (p.kind === "text" ? [p.text] : [])).join("\n");
    if (text) return text;
  }
  return null;
}
