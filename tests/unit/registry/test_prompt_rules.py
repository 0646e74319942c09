"""Prompt rules: label moves, composition tags, cycles, and variables read as the SDK does."""

from __future__ import annotations

import pytest
from langfuse.model import TemplateParser

from axonal_events.prompts import LabelMove
from axonal_registry.domain.composition import (
    MAX_DEPTH,
    CompositionError,
    Node,
    Reference,
    check_next,
    embeds,
    references,
    substitute,
)
from axonal_registry.domain.labels import after_delete, moves_to
from axonal_registry.domain.variables import placeholders, variables


def test_a_label_moves_from_the_version_that_had_it():
    current = {"production": 1, "latest": 2}
    assert moves_to(current, 3, ["production", "latest", "staging"]) == [
        LabelMove(label="production", from_version=1, to_version=3),
        LabelMove(label="latest", from_version=2, to_version=3),
        LabelMove(label="staging", from_version=None, to_version=3),
    ]


def test_a_label_already_on_the_version_does_not_move():
    assert moves_to({"production": 2}, 2, ["production", "production"]) == []


def test_a_delete_drops_its_labels_and_hands_latest_to_the_newest_left():
    current = {"latest": 3, "staging": 3, "production": 1}
    assert after_delete(current, {3}, {1, 2}) == [
        LabelMove(label="staging", from_version=3, to_version=None),
        LabelMove(label="latest", from_version=3, to_version=2),
    ]
    assert after_delete(current, {1, 2, 3}, set())[-1] == LabelMove(
        label="latest", from_version=3, to_version=None
    )


def test_tags_are_read_like_langfuse_does():
    text = (
        "@@@langfusePrompt:name=a/b|version=2@@@ @@@langfusePrompt:name=c|label=prod@@@ "
        "@@@langfusePrompt:version=2|name=x@@@ @@@langfusePrompt:name=y@@@ "
        "@@@langfusePrompt:name=z|version=two@@@ @@@langfusePrompt:name=a/b|version=2@@@"
    )
    found = references(text)
    assert [(r.name, r.version, r.label) for r in found] == [
        ("a/b", 2, None),
        ("c", None, "prod"),
    ]
    assert [str(r) for r in found] == ["a/b v2", "c@prod"]
    assert embeds(text)
    assert not embeds("plain {{var}}")


def test_substitution_keeps_a_chat_prompt_valid_json():
    ref = Reference("q", None, "production", "@@@langfusePrompt:name=q|label=production@@@")
    chat = [{"role": "system", "content": f"Say {ref.tag} twice: {ref.tag}"}]
    assert embeds(chat)
    assert references(chat) == [ref]
    assert substitute(chat, ref, 'a "quoted"\nline') == [
        {"role": "system", "content": 'Say a "quoted"\nline twice: a "quoted"\nline'}
    ]
    assert substitute(f"<{ref.tag}>", ref, "x") == "<x>"


def test_a_cycle_is_named_from_where_it_closes():
    chain = (Node("a", 1), Node("b", 2), Node("c", 1))
    with pytest.raises(CompositionError, match=r"cycle: b v2 -> c v1 -> b v3"):
        check_next(chain, Node("b", 3))
    check_next(chain, Node("d", 1))


def test_chains_deeper_than_the_limit_are_refused():
    chain = tuple(Node(f"p{i}", 1) for i in range(MAX_DEPTH))
    with pytest.raises(CompositionError, match=f"deeper than {MAX_DEPTH}"):
        check_next(chain, Node("last", 1))


@pytest.mark.parametrize(
    "text",
    [
        "Hi {{name}}, {{ place }}!",
        "{{a}}{{b}} {{a}}",
        "{{unclosed",
        "{{ spaced name }} and }} {{",
        "nested {{ {{x}} }}",
        "none here",
    ],
)
def test_variables_are_the_names_the_sdk_compiles(text):
    assert variables(text) == list(dict.fromkeys(TemplateParser.find_variable_names(text)))


def test_chat_variables_and_placeholders():
    chat = [
        {"role": "system", "content": "You help {{user}} with {{topic}}."},
        {"type": "placeholder", "name": "history"},
        {"role": "user", "content": "{{topic}}?"},
    ]
    assert variables(chat) == ["user", "topic"]
    assert placeholders(chat) == ["history"]
    assert placeholders("text {{x}}") == []
