"""The repository's shape: small modules, and every service laid out as docs/services.md says."""

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
MAX_LINES = 400
SERVICES = sorted(p.parents[2].name for p in ROOT.glob("services/*/src/axonal_*/app.py"))


def _python_files() -> list[Path]:
    folders = [*ROOT.glob("libs/*/src"), *ROOT.glob("services/*/src"), ROOT / "tests"]
    folders += [ROOT / "bench", ROOT / "examples"]
    return sorted(p for folder in folders for p in folder.rglob("*.py"))


def test_no_module_is_over_the_limit():
    long = {
        str(path.relative_to(ROOT)): n
        for path in _python_files()
        if (n := len(path.read_text().splitlines())) > MAX_LINES
    }
    assert long == {}, f"split these modules by job (at most {MAX_LINES} lines each)"


@pytest.mark.parametrize("service", SERVICES)
def test_every_service_has_the_documented_files(service):
    folder = ROOT / "services" / service
    package = next((folder / "src").glob("axonal_*"))
    present = {p.name for p in package.iterdir()} | {p.name for p in folder.iterdir()}
    expected = {"__init__.py", "__main__.py", "settings.py", "README.md"}
    if service != "api":  # the HTTP api has no bus handlers, hence no handler context
        expected |= {"app.py", "context.py"}
    assert expected <= present, f"{service} lacks {sorted(expected - present)}"


@pytest.mark.parametrize("service", [s for s in SERVICES if s != "api"])
def test_every_service_readme_says_what_it_owns_consumes_emits_and_serves(service):
    readme = (ROOT / "services" / service / "README.md").read_text()
    headings = {line[3:].strip() for line in readme.splitlines() if line.startswith("## ")}
    assert {"Owns", "Consumes", "Emits", "Serves"} <= {h.split(" ")[0] for h in headings}
