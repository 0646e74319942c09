"""The README's tour, run against the embedded stack exactly as a user runs it."""

import subprocess
import sys
from pathlib import Path

from axonal_testing.stack import stack_env

EXAMPLE = Path(__file__).parents[2] / "examples" / "tour.py"


def test_tour_example_creates_a_project_and_sees_its_event(stack):
    result = subprocess.run(
        [sys.executable, str(EXAMPLE), "tour-org", "tour-project"],
        env=stack_env(stack.home, stack.env),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    project_id, event_type, name = result.stdout.split()
    assert event_type == "axonal.project.created"
    assert name == "tour-project"
    assert len(project_id) == 36
