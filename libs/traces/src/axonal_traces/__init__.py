"""Pure converters: OTLP exports, Langfuse ingestion events and score objects -> trace records.

No I/O: the api calls these on what a client sent and publishes the resulting
:class:`~axonal_events.traces.TraceBatch`; the tracking service prices generations with
:mod:`axonal_traces.pricing`.
"""

from axonal_traces.experiments import experiment_id
from axonal_traces.legacy import EventError, LegacyRecords, convert_batch, score_config_ids
from axonal_traces.otlp import OtlpFormatError, SpanRecords, convert_export, convert_spans
from axonal_traces.pricing import Pricing, compute_cost, find_model, shipped_models
from axonal_traces.scores import InvalidRecord, score_record

__all__ = [
    "EventError",
    "InvalidRecord",
    "LegacyRecords",
    "OtlpFormatError",
    "Pricing",
    "SpanRecords",
    "compute_cost",
    "convert_batch",
    "convert_export",
    "convert_spans",
    "experiment_id",
    "find_model",
    "score_config_ids",
    "score_record",
    "shipped_models",
]
