import { plainText, toConversation } from "./conversation";

test("an OpenAI message list is a conversation", () => {
  const messages = toConversation([
    { role: "system", content: "Be brief." },
    { role: "user", content: [{ type: "text", text: "What is this?" }, { type: "image_url", image_url: { url: "https://x/cat.png" } }] },
    {
      role: "assistant",
      content: null,
      tool_calls: [{ id: "call_1", type: "function", function: { name: "lookup", arguments: '{"q": "cat"}' } }],
    },
    { role: "tool", tool_call_id: "call_1", content: '{"animal": "cat"}' },
  ]);
  expect(messages?.map((m) => m.role)).toEqual(["system", "user", "assistant", "tool"]);
  expect(messages?.[1].parts).toEqual([
    { kind: "text", text: "What is this?" },
    { kind: "image", url: "https://x/cat.png" },
  ]);
  expect(messages?.[2].parts).toEqual([]);
  expect(messages?.[2].toolCalls).toEqual([{ id: "call_1", name: "lookup", arguments: { q: "cat" } }]);
  expect(messages?.[3].toolCallId).toBe("call_1");
});

test("one message, {messages}, a completion's choices and JSON in a string are conversations too", () => {
  expect(toConversation({ role: "assistant", content: "sunny" })?.[0].parts).toEqual([{ kind: "text", text: "sunny" }]);
  expect(toConversation({ messages: [{ role: "user", content: "hi" }] })?.[0].role).toBe("user");
  expect(toConversation({ choices: [{ message: { role: "assistant", content: "ok" } }] })?.[0].role).toBe("assistant");
  expect(toConversation('[{"role": "user", "content": "hi"}]')?.[0].parts).toEqual([{ kind: "text", text: "hi" }]);
});

test("Anthropic tool_use parts become tool calls", () => {
  const [message] = toConversation([
    { role: "assistant", content: [{ type: "text", text: "Let me look." }, { type: "tool_use", id: "t1", name: "search", input: { q: "x" } }] },
  ])!;
  expect(message.parts).toEqual([{ kind: "text", text: "Let me look." }]);
  expect(message.toolCalls).toEqual([{ id: "t1", name: "search", arguments: { q: "x" } }]);
});

test("anything else is not a conversation", () => {
  expect(toConversation({ city: "Paris" })).toBeNull();
  expect(toConversation([{ role: "user", content: "hi" }, { city: "Paris" }])).toBeNull();
  expect(toConversation([])).toBeNull();
  expect(toConversation("plain words")).toBeNull();
  expect(toConversation(null)).toBeNull();
  expect(toConversation({ role: "admin" })).toBeNull();
});

test("a turn's plain text: the string, else its last message's text", () => {
  expect(plainText("hello")).toBe("hello");
  expect(plainText([{ role: "system", content: "x" }, { role: "user", content: "weather?" }])).toBe("weather?");
  expect(plainText({ city: "Paris" })).toBeNull();
  expect(plainText(null)).toBeNull();
});
