"""An LLM trace sent with the unmodified Langfuse SDK; prints its id.

Needs a running platform and a project key in the environment:

    axonal project create acme/chat
    eval "$(axonal keys create -p acme/chat | grep ^export)"   # LANGFUSE_* variables
    axonal traces get "$(python examples/langfuse_trace.py)" -p acme/chat   # tree, tokens, cost
"""

from langfuse import Langfuse, observe, propagate_attributes


@observe()
def retrieve(question: str) -> list[str]:
    return ["Paris is the capital of France."]


def main() -> None:
    langfuse = Langfuse()
    question = "What is the capital of France?"
    with langfuse.start_as_current_observation(name="answer", input={"question": question}):
        with propagate_attributes(user_id="u-42", session_id="s-1", tags=["tour"]):
            context = retrieve(question)
            with langfuse.start_as_current_observation(
                name="llm",
                as_type="generation",
                model="gpt-4o-mini",
                input={"question": question, "context": context},
                usage_details={"input": 1000, "output": 500},
            ) as generation:
                generation.update(output="Paris")
        trace_id = langfuse.get_current_trace_id()
    langfuse.flush()
    print(trace_id)


if __name__ == "__main__":
    main()
