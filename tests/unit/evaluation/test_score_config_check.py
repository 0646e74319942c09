"""The pure check of a score against its config, and the shape rules of a config."""

from datetime import UTC, datetime

import pytest
from pydantic import ValidationError

from axonal_evaluation.domain.annotation import annotation_scores, score_id
from axonal_events.annotation_queues import AnnotationScore, QueueItem, QueueObjectType
from axonal_events.score_configs import (
    ConfigCategory,
    CreateScoreConfig,
    ScoreConfig,
    ScoreRefused,
    check_score,
)
from axonal_events.traces import ScoreDataType, ScoreSource

NOW = datetime(2026, 1, 1, tzinfo=UTC)


def config(data_type: ScoreDataType, **fields) -> ScoreConfig:
    return ScoreConfig(
        id=fields.pop("id", "c1"),
        project_id="p",
        name=fields.pop("name", "quality"),
        data_type=data_type,
        created_at=NOW,
        updated_at=NOW,
        **fields,
    )


NUMERIC = config(ScoreDataType.NUMERIC, min_value=0, max_value=1)
CATEGORICAL = config(
    ScoreDataType.CATEGORICAL,
    id="c2",
    name="tone",
    categories=[ConfigCategory(label="good", value=1), ConfigCategory(label="bad", value=0)],
)
BOOLEAN = config(ScoreDataType.BOOLEAN, id="c3", name="correct")


def refused(cfg, value, **kwargs) -> ScoreRefused:
    with pytest.raises(ScoreRefused) as caught:
        check_score(cfg, value, **kwargs)
    return caught.value


def test_numeric_within_its_range_inclusive():
    assert check_score(NUMERIC, 0).value == 0.0
    assert check_score(NUMERIC, 1).value == 1.0
    assert check_score(config(ScoreDataType.NUMERIC), -1e9).value == -1e9


def test_numeric_out_of_range_names_the_bound():
    assert "Value exceeds maximum value of 1 defined in config" in str(refused(NUMERIC, 1.5))
    assert "Value is below minimum value of 0 defined in config" in str(refused(NUMERIC, -0.1))
    assert "takes a number" in str(refused(NUMERIC, "high"))


def test_categorical_label_maps_to_its_value():
    checked = check_score(CATEGORICAL, "good")
    assert (checked.data_type, checked.value, checked.string_value) == (
        ScoreDataType.CATEGORICAL,
        1.0,
        "good",
    )
    message = str(refused(CATEGORICAL, "meh"))
    assert "Value meh does not map to a valid category" in message
    assert "good, bad" in message
    assert "takes a string" in str(refused(CATEGORICAL, 1))


def test_boolean_is_zero_or_one():
    assert check_score(BOOLEAN, 1).string_value == "True"
    assert check_score(BOOLEAN, 0).string_value == "False"
    assert "Value must be either 0 or 1" in str(refused(BOOLEAN, 2))
    assert "Value must be either 0 or 1" in str(refused(BOOLEAN, "True"))


def test_unknown_archived_and_mismatched_configs():
    unknown = refused(None, 1)
    assert unknown.status == 404
    assert "does not match a valid config" in str(unknown)
    archived = refused(NUMERIC.model_copy(update={"is_archived": True}), 0.5)
    assert archived.status == 400
    assert "Config is archived" in str(archived)
    assert "expected NUMERIC, got CATEGORICAL" in str(
        refused(NUMERIC, 0.5, declared=ScoreDataType.CATEGORICAL)
    )


def test_the_score_takes_the_config_name():
    assert check_score(NUMERIC, 0.5).name == "quality"


@pytest.mark.parametrize(
    ("fields", "field"),
    [
        ({"data_type": "NUMERIC", "min_value": 2, "max_value": 1}, "maxValue"),
        ({"data_type": "CATEGORICAL"}, "categories"),
        (
            {
                "data_type": "CATEGORICAL",
                "categories": [{"label": "a", "value": 1}, {"label": "a", "value": 2}],
            },
            "labels must be unique",
        ),
        ({"data_type": "BOOLEAN", "min_value": 0}, "minValue"),
        ({"data_type": "BOOLEAN", "categories": [{"label": "yes", "value": 1}]}, "categories"),
        ({"data_type": "NUMERIC", "name": "bad/name"}, "name"),
    ],
)
def test_a_config_that_cannot_be_is_refused_naming_the_field(fields, field):
    with pytest.raises(ValidationError, match=field):
        CreateScoreConfig.model_validate({"project_id": "p", "name": "x"} | fields)


def item(object_type=QueueObjectType.TRACE) -> QueueItem:
    return QueueItem(
        id="i1",
        queue_id="q1",
        project_id="p",
        object_id="t1",
        object_type=object_type,
        status="PENDING",
        created_at=NOW,
        updated_at=NOW,
    )


def test_annotation_scores_by_name_and_id_with_deterministic_ids():
    scores = [
        AnnotationScore(name="quality", value=0.5, comment="ok"),
        AnnotationScore(config_id="c2", value="good"),
    ]
    records = annotation_scores(item(), scores, [NUMERIC, CATEGORICAL], ["c1", "c2"], now=NOW)
    assert [(r.name, r.value, r.string_value) for r in records] == [
        ("quality", 0.5, None),
        ("tone", 1.0, "good"),
    ]
    assert all(r.source is ScoreSource.ANNOTATION and r.queue_id == "q1" for r in records)
    assert all(r.trace_id == "t1" for r in records)
    assert records[0].id == score_id("i1", "quality")
    again = annotation_scores(item(), scores, [NUMERIC, CATEGORICAL], ["c1", "c2"], now=NOW)
    assert [r.id for r in again] == [r.id for r in records]


def test_annotation_scores_refuse_what_breaks_the_queue_configs():
    configs, ids = [NUMERIC, CATEGORICAL], ["c1", "c2"]
    with pytest.raises(ScoreRefused, match=r"quality: .*maximum value of 1"):
        annotation_scores(item(), [AnnotationScore(name="quality", value=3)], configs, ids, now=NOW)
    with pytest.raises(ScoreRefused, match="not a score config of the queue"):
        annotation_scores(item(), [AnnotationScore(name="other", value=3)], configs, ids, now=NOW)
    with pytest.raises(ScoreRefused, match="not a score config of the queue"):
        annotation_scores(item(), [AnnotationScore(config_id="c3", value=1)], configs, ids, now=NOW)
    with pytest.raises(ScoreRefused, match="traceId"):
        annotation_scores(
            item(QueueObjectType.OBSERVATION),
            [AnnotationScore(name="quality", value=0.5)],
            configs,
            ids,
            now=NOW,
        )
    session = annotation_scores(
        item(QueueObjectType.SESSION),
        [AnnotationScore(name="quality", value=1)],
        configs,
        ids,
        now=NOW,
    )
    assert session[0].session_id == "t1"
