"""The Kubernetes executor from the agent's settings: the cluster, the API client's
configuration (an API host as it is, a kubeconfig file, or the pod's service account)."""

from __future__ import annotations

from kubernetes_asyncio import config
from kubernetes_asyncio.client import ApiClient, Configuration

from axonal_agent.adapters.kubernetes.executor import KubernetesExecutor
from axonal_agent.adapters.kubernetes.handle import Timing
from axonal_agent.domain.kube import Cluster, Connection, SourceRef
from axonal_agent.settings import AgentSettings, KubeConnection, KubeSource

__all__ = ["cluster_of", "connect", "kubernetes_executor"]


def _source(source: KubeSource | None) -> SourceRef | None:
    if source is None:
        return None
    return SourceRef(source.name, tuple(source.items), source.mount_path)


def _connection(name: str, connection: KubeConnection) -> Connection:
    return Connection(
        name,
        connection.kind,
        schema=dict(connection.schema_),
        secret=_source(connection.secret),
        config_map=_source(connection.config_map),
        env=dict(connection.env),
    )


def cluster_of(settings: AgentSettings) -> Cluster:
    return Cluster(
        namespace=settings.kube_namespace,
        service_account=settings.kube_service_account,
        image_pull_secrets=tuple(settings.kube_image_pull_secrets),
        node_selector=dict(settings.kube_node_selector),
        artifacts_claim=settings.kube_artifacts_claim,
        store_claim=settings.kube_store_claim,
        connections={n: _connection(n, c) for n, c in settings.kube_connections.items()},
        default_image=settings.kube_default_image,
        git_image=settings.kube_git_image,
        tools_image=settings.kube_tools_image,
        ttl_seconds_after_finished=settings.kube_ttl_seconds_after_finished,
    )


async def connect(settings: AgentSettings) -> ApiClient:
    """An API client: to ``kube_api_host`` as it is, else as ``kube_config`` says, else with
    the service account Kubernetes gives the agent's pod."""
    configuration = Configuration()
    if settings.kube_api_host:
        configuration.host = settings.kube_api_host
    elif settings.kube_config is not None:
        await config.load_kube_config(
            config_file=str(settings.kube_config),
            context=settings.kube_context,
            client_configuration=configuration,
            persist_config=False,
        )
    else:
        config.load_incluster_config(client_configuration=configuration)  # type: ignore[no-untyped-call]
    return ApiClient(configuration=configuration)


def kubernetes_executor(settings: AgentSettings) -> KubernetesExecutor:
    return KubernetesExecutor(
        cluster_of(settings),
        agent=settings.name,
        connect=lambda: connect(settings),
        namespaces=settings.kube_namespaces,
        timing=Timing(settings.kube_stuck_after_seconds, settings.kube_watch_seconds),
    )
