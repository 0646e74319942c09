"""``axonal evals``: LLM-as-a-judge templates, the online rules that run them on new traces,
and their jobs (each with its state, its score or why it failed)."""

from __future__ import annotations

import json
from typing import Annotated, Any

import typer
from rich.markup import escape

from axonal.cli.api import api, guarded, project_path
from axonal.cli.options import ApiUrl, AsJson, ProjectOpt
from axonal.cli.output import console, print_json

__all__ = ["app"]

app = typer.Typer(
    name="evals",
    help="LLM-as-a-judge evaluators: templates, online rules, jobs.\n\n"
    "A rule's judge calls an LLM connection of the project: create it with the Langfuse API "
    "(PUT /api/public/llm-connections) first.",
    no_args_is_help=True,
    add_completion=False,
)
templates = typer.Typer(name="templates", help="Judge prompts with {{variables}}.")
rules = typer.Typer(name="rules", help="Online rules: which new traces a template scores.")
jobs = typer.Typer(name="jobs", help="Evaluation jobs: state, score, or why one failed.")
for _group in (templates, rules, jobs):
    _group.info.no_args_is_help = True
    app.add_typer(_group)

_STATE = {"pending": "yellow", "running": "cyan", "succeeded": "green", "failed": "red"}


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


@templates.command("ls")
def templates_ls(
    project: ProjectOpt = None, as_json: AsJson = False, api_url: ApiUrl = None
) -> None:
    """List the project's judge templates."""
    from axonal_events.evaluators import EvalTemplateList  # noqa: PLC0415

    path = guarded(lambda: _path(project, "templates"))
    with api(api_url) as client:
        found = client.get(path, EvalTemplateList).data
    if as_json:
        print_json(found)
        return
    from rich.table import Table  # noqa: PLC0415

    table = Table("name", "score", "prompt", "id")
    for t in found:
        source = f"registry {t.prompt_name}@{t.prompt_label}" if t.prompt_name else "inline"
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
    score_name: Annotated[
        str | None, typer.Option("--score-name", help="The scores' name (the template's).")
    ] = None,
    project: ProjectOpt = None,
    as_json: AsJson = False,
    api_url: ApiUrl = None,
) -> None:
    """Create a judge template; the judge answers a score and its reasoning."""
    from axonal_events.evaluators import EvalTemplate  # noqa: PLC0415

    if (prompt is None) == (prompt_name is None):
        raise typer.BadParameter("give --prompt (inline text) or --registry-prompt, not both")
    body = {"name": name, "prompt": prompt, "prompt_name": prompt_name, "prompt_label": label,
            "score_name": score_name}  # fmt: skip
    path = guarded(lambda: _path(project, "templates"))
    with api(api_url) as client:
        created = client.post(path, EvalTemplate, json=body)
    if as_json:
        print_json(created)
        return
    console.print(f"[green]created[/] template {escape(created.name)} [dim]({created.id})[/]")


def _rules_table(found: list[Any]) -> Any:
    from rich.table import Table  # noqa: PLC0415

    table = Table("name", "template", "connection/model", "target", "sampling", "delay", "state")
    for r in found:
        state = "[green]active[/]" if r.active else "[dim]inactive[/]"
        table.add_row(f"[bold]{escape(r.name)}[/]", escape(r.template),
                      escape(f"{r.connection}/{r.model}"), r.target, f"{r.sampling:g}",
                      f"{r.delay_seconds:g}s", state)  # fmt: skip
    return table


@rules.command("ls")
def rules_ls(project: ProjectOpt = None, as_json: AsJson = False, api_url: ApiUrl = None) -> None:
    """List the project's online rules."""
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
    template: Annotated[str, typer.Option("--template", help="The template's name.")],
    connection: Annotated[str, typer.Option("--connection", help="The LLM connection's provider.")],
    model: Annotated[str, typer.Option("--model", help="The judge's model.")],
    trace_name: Annotated[
        list[str] | None, typer.Option("--name", help="Only targets of this name (repeatable).")
    ] = None,
    tag: Annotated[list[str] | None, typer.Option("--tag", help="Tags the trace carries.")] = None,
    environment: Annotated[list[str] | None, typer.Option("--env", help="Environments.")] = None,
    observation_type: Annotated[
        str | None, typer.Option("--observation", help="Score observations of this type.")
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
    """Create an online rule: each new matching trace (or observation) is judged once."""
    from axonal_events.evaluators import EvalRule  # noqa: PLC0415

    body = {
        "name": name, "template": template, "connection": connection, "model": model,
        "target": "observation" if observation_type else "trace",
        "filter": {"names": trace_name or [], "tags": tag or [], "environments": environment or [],
                   "types": [observation_type] if observation_type else []},
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
    """Activate a rule (its LLM connection must exist)."""
    _set_active(rule, "activate", project, as_json, api_url)


@rules.command("deactivate")
def rules_deactivate(
    rule: Annotated[str, typer.Argument(help="The rule's name or id.")],
    project: ProjectOpt = None,
    as_json: AsJson = False,
    api_url: ApiUrl = None,
) -> None:
    """Pause a rule: new traces are no longer judged."""
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

    table = Table("id", "trace", "state", "score", "reason")
    for j in found:
        color = _STATE[j.state]
        score = "" if j.score_value is None else f"{j.score_value:g}"
        table.add_row(escape(j.id), escape(j.trace_id), f"[{color}]{j.state}[/]", score,
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
    if job.score_value is not None:
        console.print(f"score {job.score_value:g} [dim]({job.score_id})[/]")
    if job.reason:
        console.print(f"[red]reason[/] {escape(job.reason)}")
    if job.answer is not None:
        console.print(f"answer {escape(json.dumps(job.answer))}")
