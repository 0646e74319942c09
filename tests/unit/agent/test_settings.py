"""Agent settings from the environment."""

from axonal_agent.settings import AgentSettings


def test_environment_and_defaults(monkeypatch, tmp_path):
    monkeypatch.setenv("AXONAL_HOME", str(tmp_path))
    monkeypatch.setenv("AXONAL_AGENT_QUEUES", '["default", "gpu/a100"]')
    monkeypatch.setenv("AXONAL_AGENT_GPU", "2")
    monkeypatch.setenv("AXONAL_API_URL", "http://api:8000")
    settings = AgentSettings()
    assert settings.queues == ["default", "gpu/a100"]
    assert settings.work_root == tmp_path / "runs"
    assert settings.api_url == "http://api:8000"
    assert settings.slots.gpu == 2
    assert settings.slots.cpu >= 1
    assert settings.slots.memory > 0
    assert settings.name


def test_the_agent_setting_wins_over_the_stack_api_url(monkeypatch):
    monkeypatch.setenv("AXONAL_API_URL", "http://stack")
    monkeypatch.setenv("AXONAL_AGENT_API_URL", "http://agent")
    assert AgentSettings().api_url == "http://agent"
