"""Pytest plugin: real servers for Axonal tests, a browser, the external conformance corpus,
and the Kubernetes API double."""

from axonal_testing.browser import *  # noqa: F403
from axonal_testing.completeness import *  # noqa: F403
from axonal_testing.conformance import (  # noqa: F401 - the corpus hooks
    pytest_configure,
    pytest_ignore_collect,
    pytest_terminal_summary,
    pytest_testnodedown,
)
from axonal_testing.kube.fixture import *  # noqa: F403
from axonal_testing.nats_server import *  # noqa: F403
from axonal_testing.postgres import *  # noqa: F403
from axonal_testing.s3 import *  # noqa: F403
from axonal_testing.services import *  # noqa: F403
from axonal_testing.stack import *  # noqa: F403
