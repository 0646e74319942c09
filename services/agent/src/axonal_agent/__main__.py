"""``python -m axonal_agent`` runs the agent service."""

import asyncio

from axonal_agent.app import build_agent_app

if __name__ == "__main__":
    asyncio.run(build_agent_app().run())
