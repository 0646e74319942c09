"""The spec library on the external corpus: its matrices, hub references and presets.

Collected only when the corpus is there (``AXONAL_CONFORMANCE_DIR``, or
``../shared/conformance`` beside the repository).
"""

from pathlib import Path

import yaml

from axonal_spec.composition import apply_run_patch, compose, is_preset
from axonal_spec.hub import MappedUrlResolver, PathResolver, builtin_hub
from axonal_spec.matrix import (
    BayesMatrix,
    GridMatrix,
    MappingMatrix,
    MetricEarlyStopping,
    TpeMatrix,
    expand,
    grid_size,
    parse_matrix,
    search_space,
)
from axonal_spec.models import Job
from axonal_spec.parsing import load
from axonal_testing.conformance import required_external_corpus

CONFORMANCE = required_external_corpus()
CORPUS = CONFORMANCE / "polyaxonfiles"
QUICK_START = CORPUS / "polyaxon-quick-start"
OPTIMIZATION = QUICK_START / "scheduling/optimization"
TYPED_URL = (
    "https://raw.githubusercontent.com/polyaxon/polyaxon-quick-start/master/"
    "scheduling/experimentation/typed.yaml"
)
HUB = builtin_hub()


def corpus_matrix(path: Path):
    return parse_matrix(yaml.safe_load(path.read_text())["matrix"])


def walk(key: str):
    """(file, node) for every mapping holding ``key`` in the corpus."""
    for path in sorted(CORPUS.rglob("*.y*ml")):
        stack = [yaml.safe_load(path.read_text())]
        while stack:
            node = stack.pop()
            if isinstance(node, dict):
                if key in node:
                    yield path, node
                stack.extend(node.values())
            elif isinstance(node, list):
                stack.extend(node)


# -- matrices --------------------------------------------------------------------------------


def test_every_corpus_matrix_parses():
    matrices = [parse_matrix(node["matrix"]) for _, node in walk("matrix")]
    assert len(matrices) == 10


def test_corpus_grid_expands_in_written_order():
    runs = expand(corpus_matrix(OPTIMIZATION / "hyperparams_grid.yaml"))
    assert len(runs) == 16
    assert runs[0] == {
        "learning_rate": 0.001,
        "dropout": 0.25,
        "conv_activation": "relu",
        "epochs": 5,
    }
    assert runs[1]["epochs"] == 10
    assert runs[2]["conv_activation"] == "sigmoid"
    assert runs[-1] == {
        "learning_rate": 0.1,
        "dropout": 0.3,
        "conv_activation": "sigmoid",
        "epochs": 10,
    }
    assert list(runs[0]) == ["learning_rate", "dropout", "conv_activation", "epochs"]


def test_corpus_grid_num_runs_truncates():
    matrix = corpus_matrix(OPTIMIZATION / "hyperparams_grid_with_concurrency.yaml")
    full = GridMatrix.model_validate({**matrix.to_dict(), "numRuns": None})
    assert (matrix.concurrency, grid_size(matrix), grid_size(full)) == (2, 10, 40)
    assert expand(matrix) == expand(full)[:10]


def test_corpus_random_and_mapping_expand():
    random_matrix = corpus_matrix(OPTIMIZATION / "hyperparams_random.yaml")
    assert len(expand(random_matrix, seed="run-uuid")) == 10
    mapping = corpus_matrix(OPTIMIZATION / "mapping.yaml")
    assert (
        expand(mapping)
        == yaml.safe_load((OPTIMIZATION / "mapping.yaml").read_text())["matrix"]["values"]
    )


def test_corpus_hyperopt_is_read_as_tpe_keeping_the_algorithm():
    matrix = corpus_matrix(OPTIMIZATION / "hyperparams_hyperopot.yaml")
    assert isinstance(matrix, TpeMatrix)
    assert (matrix.kind, matrix.algorithm, matrix.num_runs, matrix.max_iterations) == (
        "tpe",
        "tpe",
        20,
        10,
    )
    assert matrix.tuner is not None
    assert matrix.tuner.hub_ref == "hyperopt-tuner"
    assert parse_matrix(matrix.to_dict()) == matrix


def test_corpus_bayes_settings_and_search_space():
    matrix = corpus_matrix(OPTIMIZATION / "hyperparams_bo.yaml")
    assert isinstance(matrix, BayesMatrix)
    assert matrix.utility_function is not None
    assert matrix.utility_function.gaussian_process is not None
    assert matrix.utility_function.gaussian_process.nu == 1.9
    assert matrix.metric.optimization == "minimize"
    space = search_space(matrix)
    assert space["params"]["learning_rate"] == {
        "kind": "linspace",
        "start": 0.001,
        "stop": 0.1,
        "num": 5,
    }
    assert space["params"]["dropout"] == {"kind": "choice", "values": [0.25, 0.3]}
    assert space["metric"] == {"name": "loss", "optimization": "minimize"}
    assert space["numInitialRuns"] == 40
    assert space["utilityFunction"]["kappa"] == 1.2


def test_corpus_mapping_with_metric_early_stopping():
    path = CORPUS / "cli/cli/tests/fixtures/plain/mapping_job_file_early_stopping.yml"
    matrix = corpus_matrix(path)
    assert isinstance(matrix, MappingMatrix)
    assert matrix.early_stopping == [
        MetricEarlyStopping(metric="loss", value=0.01, optimization="maximize")
    ]


# -- the hub ---------------------------------------------------------------------------------


def input_names(document):
    return {io["name"] for io in document.get("inputs") or []}


def test_every_corpus_hub_ref_resolves_to_a_component_taking_its_params():
    refs = []
    for path, node in walk("hubRef"):
        params = set(node.get("params") or {})
        for join in node.get("joins") or []:
            params |= set(join.get("params") or {})
        refs.append((path.name, node["hubRef"], params))
    assert len(refs) == 9
    for file, ref, params in refs:
        if ref == "component-hook-ref":  # a made-up name in a CLI test fixture
            continue
        assert params <= input_names(HUB.resolve(ref)), (file, ref, params)
    assert input_names(HUB.resolve("demo/tensorboard:multi-runs")) == {"uuids"}
    assert HUB.resolve("dokerizer") == HUB.resolve("kaniko")  # the quick-start's spelling


def test_mapped_url_and_path_resolvers_on_the_quick_start():
    typed = QUICK_START / "scheduling/experimentation/typed.yaml"
    assert MappedUrlResolver({TYPED_URL: typed}).fetch(TYPED_URL) == typed.read_text()
    prefix = MappedUrlResolver(
        {"https://raw.githubusercontent.com/polyaxon/polyaxon-quick-start/master/": QUICK_START}
    )
    assert prefix.fetch(TYPED_URL) == typed.read_text()
    referrer = OPTIMIZATION / "hyperparams_hyperopot.yaml"
    resolver = PathResolver(root="/nonexistent")
    assert resolver.resolve("../experimentation/typed.yaml", referrer=referrer) == typed.resolve()
    assert "typed-experiment" in resolver.read("../experimentation/typed.yaml", referrer=referrer)


# -- presets ---------------------------------------------------------------------------------


def test_the_quick_start_presets():
    scheduling = QUICK_START / "scheduling"
    base = load(scheduling / "presets" / "polyaxonfile.yaml")
    termination = load(scheduling / "helpers" / "termination.yaml")
    git = load(scheduling / "presets" / "git-init.yaml")
    assert is_preset(termination)
    assert is_preset(git)
    assert not is_preset(base)
    result = compose([base, termination, git])
    assert result.to_dict()["termination"] == {"ttl": 160}
    assert result.runtime is not None
    run = apply_run_patch(result.runtime, result.run_patch, result.patch_strategy)
    assert isinstance(run, Job)
    assert run.to_dict()["init"] == [
        {"git": {"url": "https://github.com/polyaxon/polyaxon-quick-start"}}
    ]
