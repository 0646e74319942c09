"""``python -m axonal_agent`` runs the agent service."""

from axonal_agent.app import build_app
from axonal_agent.settings import AgentSettings
from axonal_bus import loop

if __name__ == "__main__":
    loop.run(build_app(AgentSettings()).run(), spawns_processes=True)
