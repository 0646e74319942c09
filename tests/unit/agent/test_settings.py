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


def test_one_settings_object_reads_the_shared_variables_and_the_stack_secret(monkeypatch):
    monkeypatch.setenv("AXONAL_NATS_URL", "nats://bus:4222")
    monkeypatch.setenv("AXONAL_DATABASE_URL", "postgresql://db/axonal")
    monkeypatch.setenv("AXONAL_NAMESPACE", "team1")
    monkeypatch.setenv("AXONAL_AGENT_NAME", "gpu-box")
    monkeypatch.setenv("AXONAL_RUN_TOKEN_SECRET", "from-the-stack")
    settings = AgentSettings()
    assert (settings.nats_url, settings.database_url) == (
        "nats://bus:4222",
        "postgresql://db/axonal",
    )
    assert settings.subjects.namespace == "team1"
    assert settings.name == "gpu-box"
    assert settings.run_token_secret is not None
    assert settings.run_token_secret.get_secret_value() == "from-the-stack"


def test_the_executor_is_local_unless_told_and_empty_kube_values_are_unset(monkeypatch):
    assert AgentSettings().executor == "local"
    monkeypatch.setenv("AXONAL_AGENT_EXECUTOR", "kubernetes")
    monkeypatch.setenv("AXONAL_AGENT_KUBE_CONFIG", "")
    monkeypatch.setenv("AXONAL_AGENT_KUBE_API_HOST", "")
    settings = AgentSettings()
    assert settings.executor == "kubernetes"
    assert (settings.kube_config, settings.kube_api_host) == (None, None)
    assert (settings.kube_namespace, settings.kube_stuck_after_seconds) == ("default", 300)
