"""``axonal evals``: evaluator templates (LLM-as-a-judge and code), the rules that run them on
new traces or experiments (or send traces to an annotation queue), and their jobs (each with
its state, its score or why it failed)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape

from axonal.cli.api import api, guarded, project_path
from axonal.cli.options import ApiUrl, AsJson, ProjectOpt
from axonal.cli.output import console, print_json

__all__ = ["app"]

app = typer.Typer(
    name="evals",
    help="Evaluators (LLM judge or code): templates, rules, jobs.\n\n"
    "An LLM template's judge calls an LLM connection of the project: create it with the "
    "Langfuse API (PUT /api/public/llm-connections) first. A code template runs as a job on "
    "an agent.",
    no_args_is_help=True,
    add_completion=False,
)
templates = typer.Typer(name="templates", help="Judge prompts and code evaluators.")
rules = typer.Typer(name="rules", help="Rules: which targets a template scores or a queue gets.")
jobs = typer.Typer(name="jobs", help="Evaluation jobs: state, score, or why one failed.")
for _group in (templates, rules, jobs):
    _group.info.no_args_is_help = True
    app.add_typer(_group)

_STATE = {"pending": "yellow", "running": "cyan", "succeeded": "green", "failed": "red"}
_CONDITION = re.compile(r"^\s*([^<>=!]+?)\s*(<=|>=|!=|<|>|=)\s*(.+?)\s*$")


def _path(project: str | None, tail: str) -> str:
    return project_path(project, "evals", tail)


def _pairs(pairs: list[str], what: str) -> dict[str, str]:
    found = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip() or not value.strip():
            raise typer.BadParameter(f"{pair!r}: use {what}")
        found[key.strip()] = value.strip()
    return found


def _conditions(texts: list[str]) -> list[dict[str, Any]]:
    """``NAME OP VALUE`` (``user-feedback<0``, ``label=bad``) as score conditions."""
    found = []
    for text in texts:
        match = _CONDITION.match(text)
        if match is None:
            raise typer.BadParameter(f"{text!r}: use NAME OP VALUE, for example 'feedback<0'")
        name, operator, raw = match.groups()
        value: float | str
        try:
            value = float(raw)
        except ValueError:
            value = raw
        found.append({"name": name, "operator": operator, "value": value})
    return found


@templates.command("ls")
def templates_ls(
    project: ProjectOpt = None, as_json: AsJson = False, api_url: ApiUrl = None
) -> None:
    """List the project's templates."""
    from axonal_events.evaluators import EvalTemplateList  # noqa: PLC0415

    path = guarded(lambda: _path(project, "templates"))
    with api(api_url) as client:
        found = client.get(path, EvalTemplateList).data
    if as_json:
        print_json(found)
        return
    from rich.table import Table  # noqa: PLC0415

    table = Table("name", "score", "evaluator", "id")
    for t in found:
        source = f"registry {t.prompt_name}@{t.prompt_label}" if t.prompt_name else "inline"
        if t.kind == "code":
            source = f"code ({t.runtime.python}, {t.runtime.timeout_seconds:g}s)"
        table.add_row(f"[bold]{escape(t.name)}[/]", escape(t.score_name), source, escape(t.id))
    console.print(
        table if found else "no templates: create one with `axonal evals templates create`"
    )


@templates.command("create")
def templates_create(
    name: Annotated[str, typer.Argument(help="The template's name.")],
    prompt: Annotated[
        str | None, typer.Option("--prompt", help="Inline text with {{variables}}.")
    ] = None,
    prompt_name: Annotated[
        str | None, typer.Option("--registry-prompt", help="A registry prompt's name instead.")
    ] = None,
    label: Annotated[str, typer.Option("--label", help="The registry prompt's label.")] = (
        "production"
    ),
    code_file: Annotated[
        Path | None,
        typer.Option(
            "--code-file",
            help="A Python file defining evaluate(**variables): a code evaluator, run as a job.",
            exists=True,
            dir_okay=False,
        ),
    ] = None,
    python: Annotated[str, typer.Option("--python", help="The code's interpreter.")] = "python3",
    timeout: Annotated[float, typer.Option("--timeout", min=1, help="Seconds per job.")] = 120.0,
    cpu: Annotated[str, typer.Option("--cpu", help="The code job's cpu limit.")] = "1",
    memory: Annotated[str, typer.Option("--memory", help="The code job's memory limit.")] = "1Gi",
    score_name: Annotated[
        str | None, typer.Option("--score-name", help="The scores' name (the template's).")
    ] = None,
    project: ProjectOpt = None,
    as_json: AsJson = False,
    api_url: ApiUrl = None,
) -> None:
    """Create a template: a judge prompt (the judge answers a score and its reasoning), or a
    Python function returning the score (or score and reasoning)."""
    from axonal_events.evaluators import EvalTemplate  # noqa: PLC0415

    if sum(x is not None for x in (prompt, prompt_name, code_file)) != 1:
        raise typer.BadParameter("give one of --prompt, --registry-prompt or --code-file")
    body: dict[str, Any] = {"name": name, "prompt": prompt, "prompt_name": prompt_name,
                            "prompt_label": label, "score_name": score_name}  # fmt: skip
    if code_file is not None:
        body |= {"kind": "code", "code": code_file.read_text(), "prompt_label": "production",
                 "runtime": {"python": python, "timeout_seconds": timeout, "cpu": cpu,
                             "memory": memory}}  # fmt: skip
    path = guarded(lambda: _path(project, "templates"))
    with api(api_url) as client:
        created = client.post(path, EvalTemplate, json=body)
    if as_json:
        print_json(created)
        return
    console.print(f"[green]created[/] template {escape(created.name)} [dim]({created.id})[/]")


def _rules_table(found: list[Any]) -> Any:
    from rich.table import Table  # noqa: PLC0415

    table = Table("name", "does", "judge", "on", "sampling", "delay", "state")
    for r in found:
        state = "[green]active[/]" if r.active else "[dim]inactive[/]"
        does = f"score: {r.template}" if r.template else f"queue: {r.queue_id}"
        judge = f"{r.connection}/{r.model}" if r.model else ""
        on = r.target + (f" of {', '.join(r.filter.datasets)}" if r.filter.datasets else "")
        table.add_row(f"[bold]{escape(r.name)}[/]", escape(does), escape(judge), escape(on),
                      f"{r.sampling:g}", f"{r.delay_seconds:g}s", state)  # fmt: skip
    return table


@rules.command("ls")
def rules_ls(project: ProjectOpt = None, as_json: AsJson = False, api_url: ApiUrl = None) -> None:
    """List the project's rules."""
    from axonal_events.evaluators import EvalRuleList  # noqa: PLC0415

    path = guarded(lambda: _path(project, "rules"))
    with api(api_url) as client:
        found = client.get(path, EvalRuleList).data
    if as_json:
        print_json(found)
        return
    console.print(_rules_table(found) if found else "no rules: `axonal evals rules create`")


@rules.command("create")
def rules_create(
    name: Annotated[str, typer.Argument(help="The rule's name.")],
    template: Annotated[
        str | None, typer.Option("--template", help="Score with this template.")
    ] = None,
    queue: Annotated[
        str | None, typer.Option("--queue", help="Send targets to this annotation queue instead.")
    ] = None,
    connection: Annotated[
        str | None, typer.Option("--connection", help="The LLM connection's provider.")
    ] = None,
    model: Annotated[str | None, typer.Option("--model", help="The judge's model.")] = None,
    trace_name: Annotated[
        list[str] | None, typer.Option("--name", help="Only targets of this name (repeatable).")
    ] = None,
    tag: Annotated[list[str] | None, typer.Option("--tag", help="Tags the trace carries.")] = None,
    environment: Annotated[list[str] | None, typer.Option("--env", help="Environments.")] = None,
    observation_type: Annotated[
        str | None, typer.Option("--observation", help="Score observations of this type.")
    ] = None,
    score: Annotated[
        list[str] | None,
        typer.Option("--score", help="A score the trace carries: NAME OP VALUE ('feedback<0')."),
    ] = None,
    dataset: Annotated[
        list[str] | None,
        typer.Option("--dataset", help="Evaluate this dataset's experiments as they run."),
    ] = None,
    var: Annotated[
        list[str] | None, typer.Option("--var", help="VARIABLE=SELECTOR (output.answer).")
    ] = None,
    sampling: Annotated[float, typer.Option("--sampling", min=0, max=1)] = 1.0,
    delay: Annotated[float, typer.Option("--delay", min=0, help="Seconds to wait.")] = 0.0,
    concurrency: Annotated[int, typer.Option("--concurrency", min=1)] = 8,
    per_minute: Annotated[
        int | None, typer.Option("--per-minute", min=1, help="Judge calls a minute at most.")
    ] = None,
    inactive: Annotated[bool, typer.Option("--inactive", help="Create it paused.")] = False,
    project: ProjectOpt = None,
    as_json: AsJson = False,
    api_url: ApiUrl = None,
) -> None:
    """Create a rule: each new matching trace (or observation, or experiment item with
    --dataset) is scored by the template, or sent to the queue, once."""
    from axonal_events.evaluators import EvalRule  # noqa: PLC0415

    if (template is None) == (queue is None):
        raise typer.BadParameter("give --template (score) or --queue (send for review)")
    body = {
        "name": name, "template": template, "queue": queue, "connection": connection,
        "model": model, "target": "observation" if observation_type else "trace",
        "filter": {"names": trace_name or [], "tags": tag or [], "environments": environment or [],
                   "types": [observation_type] if observation_type else [],
                   "scores": _conditions(score or []), "datasets": dataset or []},
        "mapping": _pairs(var or [], "VARIABLE=SELECTOR, for example answer=output.answer"),
        "sampling": sampling, "delay_seconds": delay, "max_concurrency": concurrency,
        "max_per_minute": per_minute,
        "active": not inactive,
    }  # fmt: skip
    path = guarded(lambda: _path(project, "rules"))
    with api(api_url) as client:
        created = client.post(path, EvalRule, json=body)
    if as_json:
        print_json(created)
        return
    console.print(f"[green]created[/] rule {escape(created.name)} [dim]({created.id})[/]")
    console.print("[dim]hint: follow its jobs with `axonal evals jobs ls --rule "
                  f"{escape(created.name)}`[/]")  # fmt: skip


def _set_active(rule: str, verb: str, project: str | None, as_json: bool, url: str | None) -> None:
    from axonal_events.evaluators import EvalRule  # noqa: PLC0415

    path = guarded(lambda: _path(project, f"rules/{rule}/{verb}"))
    with api(url) as client:
        updated = client.post(path, EvalRule)
    if as_json:
        print_json(updated)
        return
    console.print(f"[green]{verb}d[/] rule {escape(updated.name)}")


@rules.command("activate")
def rules_activate(
    rule: Annotated[str, typer.Argument(help="The rule's name or id.")],
    project: ProjectOpt = None,
    as_json: AsJson = False,
    api_url: ApiUrl = None,
) -> None:
    """Activate a rule (an LLM template's connection must exist)."""
    _set_active(rule, "activate", project, as_json, api_url)


@rules.command("deactivate")
def rules_deactivate(
    rule: Annotated[str, typer.Argument(help="The rule's name or id.")],
    project: ProjectOpt = None,
    as_json: AsJson = False,
    api_url: ApiUrl = None,
) -> None:
    """Pause a rule: new targets are no longer evaluated."""
    _set_active(rule, "deactivate", project, as_json, api_url)


@rules.command("run")
def rules_run(
    rule: Annotated[str, typer.Argument(help="The rule's name or id.")],
    dataset_run: Annotated[
        str, typer.Option("--dataset-run", help="The dataset run (experiment) id to judge.")
    ],
    project: ProjectOpt = None,
    as_json: AsJson = False,
    api_url: ApiUrl = None,
) -> None:
    """Judge every item of a dataset run with the rule's evaluator (offline evaluation)."""
    from axonal_events.evaluators import OfflineEvaluation  # noqa: PLC0415

    path = guarded(lambda: _path(project, f"rules/{rule}/dataset-runs/{dataset_run}"))
    with api(api_url) as client:
        done = client.post(path, OfflineEvaluation)
    if as_json:
        print_json(done)
        return
    before = len(done.job_ids) - done.created
    console.print(
        f"[green]{done.created}[/] jobs made for {done.items} items"
        + (f" ({before} judged or queued before)" if before else "")
        + f"; follow them with axonal evals jobs ls --rule {escape(rule)}"
    )


@jobs.command("ls")
def jobs_ls(
    rule: Annotated[str | None, typer.Option("--rule", help="The rule's name or id.")] = None,
    state: Annotated[
        str | None, typer.Option("--state", help="pending, running, succeeded or failed.")
    ] = None,
    limit: Annotated[int, typer.Option("--limit", min=1, max=1000)] = 50,
    project: ProjectOpt = None,
    as_json: AsJson = False,
    api_url: ApiUrl = None,
) -> None:
    """List jobs, newest first."""
    from axonal_events.evaluators import EvalJobList  # noqa: PLC0415

    if state is not None and state not in _STATE:
        raise typer.BadParameter(f"{state!r}: use one of {', '.join(_STATE)}")
    params = {k: v for k, v in {"rule": rule, "state": state, "limit": limit}.items() if v}
    path = guarded(lambda: _path(project, "jobs"))
    with api(api_url) as client:
        found = client.get(path, EvalJobList, params=params).data
    if as_json:
        print_json(found)
        return
    from rich.table import Table  # noqa: PLC0415

    table = Table("id", "trace", "state", "result", "reason")
    for j in found:
        color = _STATE[j.state]
        result = "" if j.score_value is None else f"{j.score_value:g}"
        if j.queue_item_id:
            result = "queued"
        elif j.run_uuid and j.state == "running":
            result = f"run {j.run_uuid[:12]}"
        table.add_row(escape(j.id), escape(j.trace_id), f"[{color}]{j.state}[/]", result,
                      escape((j.reason or "")[:80]))  # fmt: skip
    console.print(table if found else "no jobs")


@jobs.command("get")
def jobs_get(
    job_id: Annotated[str, typer.Argument(help="The job's id (see `axonal evals jobs ls`).")],
    project: ProjectOpt = None,
    as_json: AsJson = False,
    api_url: ApiUrl = None,
) -> None:
    """One job: its state, score, and why it failed (with the judge's answer)."""
    from axonal_events.evaluators import EvalJob  # noqa: PLC0415

    path = guarded(lambda: _path(project, f"jobs/{job_id}"))
    with api(api_url) as client:
        job = client.get(path, EvalJob)
    if as_json:
        print_json(job)
        return
    console.print(f"[bold]{escape(job.id)}[/] [{_STATE[job.state]}]{job.state}[/]")
    console.print(f"trace {escape(job.trace_id)}  attempts {job.attempts}")
    if job.dataset_item_id:
        console.print(f"dataset item {escape(job.dataset_item_id)}  run {job.dataset_run_id}")
    if job.run_uuid:
        console.print(f"evaluator run {job.run_uuid} [dim](axonal ops logs {job.run_uuid})[/]")
    if job.queue_item_id:
        console.print(f"queued as item {escape(job.queue_item_id)}")
    if job.score_value is not None:
        console.print(f"score {job.score_value:g} [dim]({job.score_id})[/]")
    if job.reason:
        console.print(f"[red]reason[/] {escape(job.reason)}")
    if job.answer is not None:
        console.print(f"answer {escape(json.dumps(job.answer))}")
