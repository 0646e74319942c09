"""Services are discovered through entry points, never imported by the stack."""

import subprocess
import sys

from axonal_stack.discovery import ServiceEntry, discover_services


def test_identity_is_discovered_with_its_module():
    services = {entry.name: entry for entry in discover_services()}
    assert services["identity"] == ServiceEntry("identity", "axonal_identity")
    assert services["identity"].command() == [sys.executable, "-m", "axonal_identity"]
    assert list(services) == sorted(services)


def test_discovery_imports_no_service():
    probe = (
        "import sys; from axonal_stack.discovery import discover_services; "
        "assert discover_services(); print(sorted(m for m in sys.modules if 'axonal' in m))"
    )
    argv = [sys.executable, "-c", probe]
    result = subprocess.run(argv, capture_output=True, text=True, check=True)
    assert "axonal_identity" not in result.stdout
