"""LLM-as-a-judge evaluators: templates, online rules on new traces, and their jobs."""
