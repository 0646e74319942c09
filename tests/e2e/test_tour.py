"""The README's tour, run against the embedded stack exactly as a user runs it."""

import json
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


HELLO = Path(__file__).parents[2] / "examples" / "hello.yaml"


def test_hello_example_runs_to_success_with_its_logs(stack):
    result = stack.cli("run", "-f", str(HELLO), "-P", "greeting=hi", "-p", "tour/hello", "--watch")
    assert result.returncode == 0, result.stdout + result.stderr
    listed = json.loads(stack.cli("ops", "ls", "-p", "tour/hello", "--json").stdout)
    runs = listed["runs"] if isinstance(listed, dict) else listed
    assert [r["status"] for r in runs] == ["succeeded"]
    logs = stack.cli("ops", "logs", runs[0]["uuid"], "-p", "tour/hello")
    assert "hi from axonal, run" in logs.stdout
