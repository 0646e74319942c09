"""``axonal events nats-user``: the configuration entry of a trusted integration's NATS user."""

from typer.testing import CliRunner

import axonal.cli

WIDE = {"COLUMNS": "200", "NO_COLOR": "1"}


def test_the_entry_allows_the_integration_its_own_subjects_only():
    result = CliRunner().invoke(
        axonal.cli.app, ["events", "nats-user", "warehouse", "--namespace", "prod"], env=WIDE
    )
    assert result.exit_code == 0, result.output
    entry = result.output.splitlines()[0]
    assert entry == (
        '{user: "ext-warehouse", password: $AXONAL_EXT_WAREHOUSE_PASSWORD, permissions: '
        '{"publish": {"allow": ["prod.ext.warehouse.>"]}, '
        '"subscribe": {"allow": ["_INBOX_prod_ext-warehouse.>"]}}}'
    )
    assert "inbox_prefix=_INBOX_prod_ext-warehouse" in result.output


def test_a_source_that_is_not_one_subject_token_is_refused_with_a_hint():
    result = CliRunner().invoke(axonal.cli.app, ["events", "nats-user", "a.b"], env=WIDE)
    assert result.exit_code == 1
    assert "must be one subject token" in result.output
    assert "Hint" in result.output
