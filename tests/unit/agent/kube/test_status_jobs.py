"""Status of a Job and of a service's Deployment, from them and their pods."""

from typing import Any

import pytest

from axonal_agent.domain.kube import Observation, observe

from .status_support import NOW, RUNNING, condition_list, job, look, pod, stamp, terminated

# -- a Job -----------------------------------------------------------------------------


def test_job_pending_running_succeeded():
    assert look("Job", job()) == Observation("pending")
    assert look("Job", job(), pod()) == Observation("pending")
    assert look("Job", job(), RUNNING) == Observation("running")
    done = pod("Succeeded", main=terminated(0, "Completed"))
    assert look("Job", job(("Complete", "True")), done) == Observation("succeeded", exit_code=0)


def test_job_oom_killed_fails_at_once_with_its_limit():
    oom = pod("Failed", main=terminated(137, "OOMKilled"), memory="1Gi")
    expected = Observation(
        "failed", "OOMKilled", "main: out of memory under its memory limit of 1Gi", 137
    )
    assert look("Job", job(), oom) == expected
    failed = job(
        ("Failed", "True", "BackoffLimitExceeded", "Job has reached the specified backoff limit")
    )
    assert look("Job", failed, oom) == expected


def test_job_exit_code_failure_carries_the_end_of_its_log():
    crashed = pod("Failed", main=terminated(1, "Error", "Traceback ...\nValueError: bad lr"))
    failed = job(
        ("Failed", "True", "BackoffLimitExceeded", "Job has reached the specified backoff limit")
    )
    assert look("Job", failed, crashed) == Observation(
        "failed", "ExitCode", "main: Traceback ...\nValueError: bad lr", 1
    )
    quiet = pod("Failed", main=terminated(3))
    assert look("Job", failed, quiet) == Observation(
        "failed", "ExitCode", "main: exited with code 3", 3
    )


def test_job_without_a_pod_cause_fails_with_the_job_reason():
    failed = job(
        ("Failed", "True", "BackoffLimitExceeded", "Job has reached the specified backoff limit")
    )
    assert look("Job", failed) == Observation(
        "failed", "BackoffLimitExceeded", "Job has reached the specified backoff limit"
    )


def test_job_deadline_exceeded_wins_over_the_killed_container():
    killed = pod("Failed", main=terminated(143))
    failed = job(
        ("Failed", "True", "DeadlineExceeded", "Job was active longer than specified deadline")
    )
    assert look("Job", failed, killed) == Observation(
        "failed", "DeadlineExceeded", "Job was active longer than specified deadline", 143
    )


def test_image_pull_failure_is_pending_then_failed_once_it_persists():
    pulling = {"waiting": {"reason": "ErrImagePull", "message": "manifest unknown"}}
    assert look("Job", job(), pod(main=pulling, age=30)) == Observation(
        "pending", "ErrImagePull", "main: manifest unknown"
    )
    backoff = {"waiting": {"reason": "ImagePullBackOff", "message": "Back-off pulling image"}}
    assert look("Job", job(), pod(main=backoff, age=301)) == Observation(
        "failed", "ImagePullBackOff", "main: Back-off pulling image"
    )
    assert (
        observe("Job", job(), [pod(main=backoff, age=30)], now=NOW, stuck_after=20).phase
        == "failed"
    )


def test_a_missing_secret_key_is_retried_then_fails():
    config = {
        "waiting": {"reason": "CreateContainerConfigError", "message": 'secret "s" not found'}
    }
    assert look("Job", job(), pod(main=config, age=5)).phase == "pending"
    assert look("Job", job(), pod(main=config, age=600)) == Observation(
        "failed", "CreateContainerConfigError", 'main: secret "s" not found'
    )


def test_an_invalid_image_name_fails_at_once():
    invalid = {"waiting": {"reason": "InvalidImageName", "message": "couldn't parse image"}}
    assert look("Job", job(), pod(main=invalid, age=1)) == Observation(
        "failed", "InvalidImageName", "main: couldn't parse image"
    )


def test_evicted_pod_fails_the_job_with_the_code_its_container_was_killed_with():
    evicted = pod(
        "Failed",
        reason="Evicted",
        message="The node was low on resource: memory.",
        main=terminated(137),
    )
    assert look("Job", job(), evicted) == Observation(
        "failed", "Evicted", "The node was low on resource: memory.", 137
    )
    kubelet = pod(
        "Running",
        main={"running": {}},
        conditions=condition_list(
            ("PodScheduled", "True"),
            ("DisruptionTarget", "True", "TerminationByKubelet", "node shutdown"),
        ),
    )
    assert look("Job", job(), kubelet) == Observation("failed", "Evicted", "node shutdown")


@pytest.mark.parametrize("reason", ["DeletionByTaintManager", "DeletionByPodGC"])
def test_node_lost_from_the_disruption_condition(reason):
    lost = pod(
        "Running",
        main={"running": {}},
        conditions=condition_list(
            ("PodScheduled", "True"),
            ("DisruptionTarget", "True", reason, "Taint manager: deleting due to NoExecute taint"),
        ),
    )
    assert look("Job", job(), lost) == Observation(
        "failed", "NodeLost", "Taint manager: deleting due to NoExecute taint"
    )


def test_node_lost_from_the_pod_reason_and_preemption():
    lost = pod(
        "Running", main={"running": {}}, reason="NodeLost", message="Node n1 is unresponsive"
    )
    assert look("Job", job(), lost) == Observation("failed", "NodeLost", "Node n1 is unresponsive")
    preempted = pod(
        "Running",
        main={"running": {}},
        conditions=condition_list(
            ("PodScheduled", "True"),
            ("DisruptionTarget", "True", "PreemptionByScheduler", "preempted by p"),
        ),
    )
    assert look("Job", job(), preempted) == Observation("failed", "Preempted", "preempted by p")


def test_unschedulable_is_pending_with_the_schedulers_message():
    waiting = pod(
        conditions=condition_list(
            (
                "PodScheduled",
                "False",
                "Unschedulable",
                "0/3 nodes are available: 3 Insufficient nvidia.com/gpu.",
            )
        )
    )
    assert look("Job", job(), waiting) == Observation(
        "pending", "Unschedulable", "0/3 nodes are available: 3 Insufficient nvidia.com/gpu."
    )


def test_a_failed_init_step_fails_the_job_but_a_sidecar_does_not():
    clone = {"name": "plx-init-0", "state": terminated(128, "Error", "fatal: repository not found")}
    failed = pod("Failed", init=[clone])
    assert look("Job", job(), failed) == Observation(
        "failed", "InitFailed", "plx-init-0: fatal: repository not found", 128
    )
    proxy = {"name": "proxy", "state": {"running": {}}, "lastState": terminated(1)}
    running = pod("Running", main={"running": {}}, init=[proxy], sidecar=True)
    assert look("Job", job(), running) == Observation("running")


def test_a_suspended_job_waits():
    assert look("Job", job(("Suspended", "True"))) == Observation(
        "pending", "Suspended", "the job is suspended"
    )


# -- a Deployment ----------------------------------------------------------------------


def deployment(available: int = 0, *conditions: tuple[str, str, str, str]) -> dict[str, Any]:
    status: dict[str, Any] = {"conditions": condition_list(*conditions)}
    if available:
        status["availableReplicas"] = available
    return {"kind": "Deployment", "status": status}


def test_a_service_runs_once_a_replica_is_available():
    assert look("Deployment", deployment(), pod()) == Observation("pending")
    assert look("Deployment", deployment(1), RUNNING) == Observation("running")
    available = deployment(0, ("Available", "True", "MinimumReplicasAvailable", "ok"))
    assert look("Deployment", available, RUNNING) == Observation("running")


def test_a_crash_looping_service_waits_until_its_deadline():
    looping = pod(
        "Running",
        main={"waiting": {"reason": "CrashLoopBackOff", "message": "back-off 40s"}},
        last=terminated(137, "OOMKilled"),
    )
    assert look("Deployment", deployment(), looping) == Observation(
        "pending", "CrashLoopBackOff", "main: back-off 40s"
    )
    late = deployment(
        0,
        (
            "Progressing",
            "False",
            "ProgressDeadlineExceeded",
            'ReplicaSet "x" has timed out progressing.',
        ),
    )
    assert look("Deployment", late, looping) == Observation(
        "failed",
        "ProgressDeadlineExceeded",
        'ReplicaSet "x" has timed out progressing. (CrashLoopBackOff: main: back-off 40s)',
    )


def test_a_service_is_not_failed_by_an_evicted_pod_its_deployment_replaces():
    evicted = pod("Failed", reason="Evicted", message="low memory", main=terminated(137))
    assert look("Deployment", deployment(1), evicted, RUNNING) == Observation("running")
    # until the replacement is ready, the eviction is why no replica is available
    assert look("Deployment", deployment(), evicted, pod()) == Observation(
        "pending", "Evicted", "low memory", 137
    )


def test_a_service_on_a_lost_node_waits_with_why():
    rolled_out = deployment(
        0,
        ("Available", "False", "MinimumReplicasUnavailable", "no minimum availability"),
        ("Progressing", "True", "NewReplicaSetAvailable", 'ReplicaSet "x" has progressed.'),
    )
    unready = pod("Running", main={"running": {}})  # its node stopped answering
    assert look("Deployment", rolled_out, unready) == Observation(
        "pending", "MinimumReplicasUnavailable", "no minimum availability"
    )
    assert look("Deployment", deployment(), unready) == Observation("pending")  # not rolled out
    lost = pod(
        "Running",
        main={"running": {}},
        conditions=condition_list(
            ("PodScheduled", "True"),
            ("DisruptionTarget", "True", "DeletionByTaintManager", "Taint manager: deleting"),
        ),
        metadata={"deletionTimestamp": stamp(1)},
    )
    assert look("Deployment", rolled_out, lost, pod()) == Observation(
        "pending", "NodeLost", "Taint manager: deleting"
    )


def _unavailable_since(seconds_ago: float) -> dict[str, Any]:
    found = deployment(0)
    found["status"]["conditions"] = [
        {
            "type": "Available",
            "status": "False",
            "reason": "MinimumReplicasUnavailable",
            "message": "no minimum availability",
            "lastTransitionTime": stamp(seconds_ago),
        }
    ]
    return found


def test_a_crashed_service_container_says_why_until_it_runs_again():
    restarted = pod("Running", main={"running": {}}, last=terminated(137, "OOMKilled"))
    assert look("Deployment", _unavailable_since(900), restarted) == Observation(
        "pending", "OOMKilled", "main: out of memory", 137
    )
    assert look("Deployment", deployment(1), restarted) == Observation("running")


@pytest.mark.parametrize(
    ("last", "reason", "why", "code"),
    [
        (terminated(137, "OOMKilled"), "OOMKilled", "main: out of memory", 137),
        (terminated(2, "Error", "KeyError: 'port'"), "ExitCode", "main: KeyError: 'port'", 2),
    ],
)
def test_a_crash_looping_service_fails_once_no_replica_was_available_for_stuck_after(
    last, reason, why, code
):
    looping = pod(
        "Running",
        main={"waiting": {"reason": "CrashLoopBackOff", "message": "back-off 20s"}},
        last=last,
    )
    assert look("Deployment", _unavailable_since(200), looping) == Observation(
        "pending", "CrashLoopBackOff", "main: back-off 20s"
    )
    assert look("Deployment", _unavailable_since(301), looping) == Observation(
        "failed",
        reason,
        f"{why} (CrashLoopBackOff, no replica available for over 300s)",
        code,
    )
