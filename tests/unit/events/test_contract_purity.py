import subprocess
import sys


def test_event_contract_imports_only_pydantic_and_stdlib():
    code = (
        "import sys, axonal_events, axonal_events.asyncapi;"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in "
        "{'faststream','nats','asyncpg','aiobotocore','httpx','structlog','axonal_bus','axonal_db'});"
        "print(','.join(bad))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""
