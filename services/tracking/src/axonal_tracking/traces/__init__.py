"""LLM traces (OTLP and Langfuse ingestion): traces, observations and scores merged by id
from batches, the sessions they name, and the reads of the Langfuse-compatible API."""
