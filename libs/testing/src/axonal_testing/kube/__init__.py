"""A test double of the Kubernetes API server, for the agent's Kubernetes executor.

No kube-apiserver can run where the tests run, so the executor's control loop is tested
against this double: an aiohttp server that speaks the real Kubernetes HTTP API (paths,
``Status`` errors, watch streams with resourceVersions, 410 Gone, pod logs) for the resources
the executor uses, with minimal, scriptable stand-ins for the controllers (Job, Deployment,
ReplicaSet, garbage collector, kubelet, and the training, Ray and Dask operators). Each
behaviour cites the Kubernetes documentation it follows. It is no conformance-tested API
server: controllers act at once, inside the request or scripting call that caused the
change, and only as far as the tests need; there are no namespaces objects (any namespace
exists), no admission, no schema validation of custom resources, no updates over HTTP.

Use the ``kube_double`` fixture (registered by the ``axonal_testing`` plugin) and
``double.api_client()``.
"""
