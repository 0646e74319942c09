"""Pytest plugin: real servers for Axonal tests."""

from axonal_testing.nats_server import *  # noqa: F403
from axonal_testing.postgres import *  # noqa: F403
from axonal_testing.s3 import *  # noqa: F403
from axonal_testing.services import *  # noqa: F403
from axonal_testing.stack import *  # noqa: F403
