import zipfile
from importlib.resources import files
from pathlib import Path

import jinja2
import jinja2.meta
import pytest
import yaml

from axonal_spec.errors import SpecError
from axonal_spec.hub import (
    ChainHub,
    ComponentHub,
    HubRef,
    LocalHub,
    MappedUrlResolver,
    PathResolver,
    UrlResolver,
    builtin_hub,
    parse_hub_ref,
)
from axonal_testing.conformance import project_fixtures

CORPUS = project_fixtures() / "polyaxonfiles"
FIXTURE_URL = "https://hub.axonal.invalid/fixtures/"
TYPED_URL = f"{FIXTURE_URL}jobs/typed.yaml"
HUB = builtin_hub()
BUILTIN_REFS = [f"{name}:{version}" for name in HUB.names() for version in HUB.versions(name)]
RESERVED_IO = {"globals", "params", "connections"}
CONTEXT = {"globals", "params", "connections", "inputs", "outputs", "artifacts"}
NOTIFIERS = ["slack", "webhook", "discord", "mattermost", "teams"]


def hub_error(hub, ref):
    with pytest.raises(SpecError) as info:
        hub.resolve(ref)
    (problem,) = info.value.problems
    return problem


def strings(node):
    if isinstance(node, str):
        yield node
    elif isinstance(node, dict):
        for value in node.values():
            yield from strings(value)
    elif isinstance(node, list):
        for value in node:
            yield from strings(value)


def input_names(document):
    return {io["name"] for io in document.get("inputs") or []}


# -- the built-in components -----------------------------------------------------------------


def test_components_are_package_data():
    folder = files("axonal_spec.hub") / "components"
    assert (folder / "tensorboard.yaml").is_file()
    assert (folder / "jupyterlab" / "scipy.yaml").is_file()


def test_builtin_names():
    assert {"tensorboard", "jupyterlab", "notebook", "kaniko", *NOTIFIERS} <= set(HUB.names())
    assert HUB.versions("tensorboard") == ["latest", "multi-runs", "path"]
    assert HUB.versions("jupyterlab") == ["latest", "scipy", "tensorflow"]


@pytest.mark.parametrize("ref", BUILTIN_REFS)
def test_each_builtin_component_is_a_structurally_valid_component(ref):
    document = HUB.resolve(ref)
    assert document["version"] == 1.1
    assert document["kind"] == "component"
    assert document["name"] == parse_hub_ref(ref).name or ref.startswith(
        ("dokerizer", "dockerizer", "tpe-tuner")
    )
    assert set(document) <= {
        "version",
        "kind",
        "name",
        "description",
        "tags",
        "inputs",
        "outputs",
        "run",
    }
    run = document["run"]
    assert run["kind"] in {"job", "service"}
    if run["kind"] == "service":
        assert run["ports"]
    container = run["container"]
    assert isinstance(container["image"], str)
    assert container["command"]
    ios = [*(document.get("inputs") or []), *(document.get("outputs") or [])]
    names = [io["name"] for io in ios]
    assert len(names) == len(set(names))
    assert not set(names) & RESERVED_IO
    for io in ios:
        assert set(io) <= {"name", "type", "description", "isOptional", "value"}
        assert io["type"]


@pytest.mark.parametrize("ref", BUILTIN_REFS)
def test_templates_only_use_declared_inputs_and_the_context(ref):
    document = HUB.resolve(ref)
    env = jinja2.Environment(autoescape=False)
    allowed = input_names(document) | CONTEXT
    for text in strings(document["run"]):
        if "{{" in text:
            used = jinja2.meta.find_undeclared_variables(env.parse(text))
            assert used <= allowed, (text, used - allowed)


def test_services_use_the_real_ports():
    assert HUB.resolve("tensorboard")["run"]["ports"] == [6006]
    for ref in ("jupyterlab", "jupyterlab:scipy", "notebook"):
        assert HUB.resolve(ref)["run"]["ports"] == [8888]
    assert HUB.resolve("jupyterlab:scipy")["run"]["container"]["image"].startswith(
        "jupyter/scipy-notebook"
    )
    assert HUB.resolve("kaniko")["run"]["container"]["image"].startswith(
        "gcr.io/kaniko-project/executor"
    )


@pytest.mark.parametrize("name", NOTIFIERS)
def test_notifiers_accept_the_hook_defaults_and_ship_a_valid_script(name):
    document = HUB.resolve(name)
    assert document["run"]["kind"] == "job"
    # `inputs`/`outputs` reach the notifier as context-only params (they name context namespaces)
    assert input_names(document) == {"uuid", "kind", "name", "status", "condition"}
    assert all(io.get("isOptional") for io in document["inputs"])
    container = document["run"]["container"]
    assert container["command"] == ["python3", "-c"]
    compile(container["args"][0], f"<{name}>", "exec")


# -- what the fixtures ask of the hub -------------------------------------------------------


def corpus_refs():
    """(file, hubRef, params passed) for every hubRef in the fixtures."""
    found = []
    for path in sorted(CORPUS.rglob("*.y*ml")):
        stack = [yaml.safe_load(path.read_text())]
        while stack:
            node = stack.pop()
            if isinstance(node, dict):
                if "hubRef" in node:
                    params = set(node.get("params") or {})
                    for join in node.get("joins") or []:
                        params |= set(join.get("params") or {})
                    found.append((path.name, node["hubRef"], params))
                stack.extend(node.values())
            elif isinstance(node, list):
                stack.extend(node)
    return found


def test_every_fixture_hub_ref_resolves_to_a_component_taking_its_params():
    refs = corpus_refs()
    assert len(refs) == 12  # two of them next to the inline component they resolved to
    for file, ref, params in refs:
        document = HUB.resolve(ref)
        assert params <= input_names(document), (file, ref, params)


def test_fixture_specific_expectations():
    assert input_names(HUB.resolve("acme/tensorboard:multi-runs")) == {"uuids"}
    assert input_names(HUB.resolve("tensorboard")) == {"uuid"}
    kaniko = HUB.resolve("kaniko")
    assert input_names(kaniko) >= {"destination", "context"}
    assert HUB.resolve("dokerizer") == kaniko  # the quick-start's spelling
    # services/notebook.yaml patches run.container of jupyterlab:scipy
    assert HUB.resolve("jupyterlab:scipy")["run"]["kind"] == "service"


# -- resolution ------------------------------------------------------------------------------


def test_owner_is_accepted_and_ignored_and_latest_is_the_default():
    assert HUB.resolve("acme/kaniko") == HUB.resolve("kaniko") == HUB.resolve("kaniko:latest")
    assert HUB.resolve("demo/tensorboard:multi-runs") == HUB.resolve("tensorboard:multi-runs")


def test_resolve_returns_a_fresh_copy():
    first = HUB.resolve("tensorboard")
    first["run"]["ports"].append(1)
    assert HUB.resolve("tensorboard")["run"]["ports"] == [6006]


def test_unknown_name_hints_close_names():
    problem = hub_error(HUB, "tensorbord")
    assert problem.location == "hubRef"
    assert problem.message == "unknown hub component `tensorbord`"
    assert problem.hint == "did you mean `tensorboard`?"
    far = hub_error(HUB, "acme/zzzzzz:1")
    assert far.message == "unknown hub component `zzzzzz` (in `acme/zzzzzz:1`)"
    assert far.hint is not None
    assert far.hint.startswith("known components: ")
    assert "kaniko" in far.hint


def test_unknown_version_hints_the_versions():
    problem = hub_error(HUB, "jupyterlab:scypi")
    assert problem.message == "hub component `jupyterlab` has no version `scypi`"
    assert problem.hint == "did you mean `scipy`?"
    assert hub_error(HUB, "kaniko:v9").hint == "known versions: latest"


@pytest.mark.parametrize("ref", ["a/b/c", "", "name:", "../etc", "tensorboard:../x", "_aliases"])
def test_malformed_refs(ref):
    problem = hub_error(HUB, ref)
    assert problem.location == "hubRef"
    assert "is not a hub reference" in problem.message


def test_parse_hub_ref():
    assert parse_hub_ref("acme/jupyterlab:scipy") == HubRef("jupyterlab", "scipy", "acme")
    assert parse_hub_ref(" kaniko ") == HubRef("kaniko")
    assert str(HubRef("tensorboard", "multi-runs", "demo")) == "demo/tensorboard:multi-runs"


def test_errors_can_be_relocated_by_the_caller():
    with pytest.raises(SpecError) as info:
        HUB.resolve("nope")
    assert info.value.prefixed("hooks", 0).problems[0].location == "hooks[0].hubRef"


# -- LocalHub / ChainHub on other folders ----------------------------------------------------

COMPONENT = "kind: component\nname: {name}\nrun: {{kind: job, container: {{image: busybox}}}}\n"


def make_hub(root: Path) -> LocalHub:
    (root / "train").mkdir(parents=True)
    (root / "train.yml").write_text(COMPONENT.format(name="train"))
    (root / "train" / "gpu.yaml").write_text(COMPONENT.format(name="train-gpu"))
    (root / "only-versions").mkdir()
    (root / "only-versions" / "v1.yaml").write_text(COMPONENT.format(name="v1"))
    (root / "broken.yaml").write_text("- not\n- a mapping\n")
    (root / "_aliases.yaml").write_text("learn: train\n")
    return LocalHub(root)


def test_local_hub_layout(tmp_path):
    hub = make_hub(tmp_path)
    assert hub.names() == ["broken", "learn", "only-versions", "train"]
    assert hub.resolve("train")["name"] == "train"
    assert hub.resolve("me/learn:gpu")["name"] == "train-gpu"
    assert hub.resolve("only-versions:v1")["name"] == "v1"
    assert hub_error(hub, "only-versions").hint == "known versions: v1"
    assert (
        hub_error(hub, "broken").message == "hub component `broken` is not a polyaxonfile mapping"
    )
    assert isinstance(hub, ComponentHub)


def test_local_hub_reads_a_zipped_package(tmp_path):
    archive = tmp_path / "hub.zip"
    with zipfile.ZipFile(archive, "w") as zipped:
        zipped.writestr("components/train.yaml", COMPONENT.format(name="train"))
        zipped.writestr("components/train/gpu.yaml", COMPONENT.format(name="train-gpu"))
    hub = LocalHub(zipfile.Path(archive, "components/"))
    assert hub.resolve("train:gpu")["name"] == "train-gpu"
    assert hub.versions("train") == ["gpu", "latest"]


def test_chain_hub_prefers_the_first_and_merges_hints(tmp_path):
    (tmp_path / "kaniko.yaml").write_text(COMPONENT.format(name="my-kaniko"))
    chain = ChainHub(LocalHub(tmp_path), HUB)
    assert chain.resolve("kaniko")["name"] == "my-kaniko"
    assert chain.resolve("tensorboard")["name"] == "tensorboard"
    problem = hub_error(chain, "tensorbord")
    assert problem.location == "hubRef"
    assert problem.hint is not None
    assert "`tensorboard`" in problem.hint
    with pytest.raises(ValueError, match="at least one hub"):
        ChainHub()


# -- urlRef / pathRef ------------------------------------------------------------------------


def test_mapped_url_resolver_serves_exact_urls_and_prefixes():
    typed = (CORPUS / "jobs/typed.yaml").read_text()
    exact = MappedUrlResolver({TYPED_URL: CORPUS / "jobs/typed.yaml"})
    assert exact.fetch(TYPED_URL) == typed
    prefix = MappedUrlResolver({FIXTURE_URL: CORPUS})
    assert prefix.fetch(TYPED_URL) == typed
    assert isinstance(prefix, UrlResolver)


def test_mapped_url_resolver_errors():
    resolver = MappedUrlResolver({TYPED_URL: "/nonexistent/typed.yaml"})
    with pytest.raises(SpecError) as info:
        resolver.fetch(TYPED_URL.replace("typed", "typd"))
    (problem,) = info.value.problems
    assert problem.location == "urlRef"
    assert "does not use the network" in problem.message
    assert problem.hint == f"did you mean `{TYPED_URL}`?"
    with pytest.raises(SpecError, match="cannot read"):
        resolver.fetch(TYPED_URL)


def test_path_resolver_is_relative_to_the_referencing_file():
    referrer = CORPUS / "matrices/hyperopt.yaml"
    resolver = PathResolver(root="/nonexistent")
    path = resolver.resolve("../jobs/typed.yaml", referrer=referrer)
    assert path == (CORPUS / "jobs/typed.yaml").resolve()
    assert "typed-trainer" in resolver.read("../jobs/typed.yaml", referrer=referrer)


def test_path_resolver_falls_back_to_its_root_and_accepts_absolute_paths(tmp_path):
    (tmp_path / "a.yaml").write_text("kind: component\n")
    resolver = PathResolver(tmp_path)
    assert resolver.read("a.yaml") == "kind: component\n"
    assert resolver.resolve(str(tmp_path / "a.yaml"), referrer="/elsewhere/x.yaml") == (
        tmp_path / "a.yaml"
    )


def test_path_resolver_missing_file_hints_siblings(tmp_path):
    (tmp_path / "polyaxonfile.yml").write_text("{}")
    with pytest.raises(SpecError) as info:
        PathResolver(tmp_path).resolve("polyaxonfle.yml")
    (problem,) = info.value.problems
    assert problem.location == "pathRef"
    assert problem.message.startswith("file not found: `polyaxonfle.yml`")
    assert problem.hint == "did you mean `polyaxonfile.yml`?"
