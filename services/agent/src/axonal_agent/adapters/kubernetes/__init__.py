"""The Kubernetes executor (:class:`KubernetesExecutor`), built from the agent's settings by
:func:`kubernetes_executor`."""

from axonal_agent.adapters.kubernetes.config import kubernetes_executor
from axonal_agent.adapters.kubernetes.executor import KubernetesExecutor

__all__ = ["KubernetesExecutor", "kubernetes_executor"]
