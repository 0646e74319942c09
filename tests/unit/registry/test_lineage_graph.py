"""The lineage graph: dataset versions read by runs, runs that wrote them, the model version."""

from axonal_registry.domain.lineage import Graph, Used, dataset_id, model_id, run_id

TRAIN, PREP = "1" * 32, "2" * 32
DATA = "d" * 64


def test_a_model_version_links_back_through_its_run_to_the_datasets_read():
    graph = Graph()
    graph.model_version("churn", 1, TRAIN, sha256="m" * 64)
    read = graph.run_used(
        [
            Used(TRAIN, "train.csv", DATA, "dataset", 10, is_input=True),
            Used(TRAIN, "model", "m" * 64, "model", 5, is_input=False),
        ]
    )
    assert read == [("train.csv", DATA)]
    assert graph.producers("train.csv", DATA, [PREP]) == [PREP]
    assert set(graph.nodes) == {
        model_id("churn", 1),
        run_id(TRAIN),
        dataset_id("train.csv", DATA),
        run_id(PREP),
    }
    assert graph.edges == [
        (run_id(TRAIN), model_id("churn", 1), "registered"),
        (dataset_id("train.csv", DATA), run_id(TRAIN), "read"),
        (run_id(PREP), dataset_id("train.csv", DATA), "wrote"),
    ]


def test_a_run_already_in_the_graph_is_not_followed_again():
    graph = Graph()
    graph.model_version("churn", 1, TRAIN)
    graph.run_used([Used(TRAIN, "x", DATA, "dataset", 1, is_input=True)])
    assert graph.producers("x", DATA, [TRAIN]) == []
    graph.producers("x", DATA, [TRAIN])
    assert graph.edges.count((run_id(TRAIN), dataset_id("x", DATA), "wrote")) == 1
