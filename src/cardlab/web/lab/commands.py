"""A lab form as the command line it stands for: the argv of `cardlab balance|sweep|compare|tune GAME ...`, read
back by the CLI's own parser and checked by the library's pre-flight, so that the page shows the command to copy
and a job runs exactly that command (no option means anything else in the browser)."""

from __future__ import annotations

import argparse
import shlex
from typing import Any, Literal

from pydantic import BaseModel, Field

from cardlab.core.errors import CardlabError
from cardlab.games import game_class, game_names
from cardlab.web.lab.settings import LabSettings
from cardlab.web.manager import Rejected

COMMANDS = ("balance", "sweep", "compare", "tune")
PRESETS = {"quick": "heuristic", "default": None}
"""Agent presets: quick is the heuristic; default leaves --agent out (the game's table search); custom: a spec."""


class RunForm(BaseModel):
    """One lab command's options as the page's form sends them."""

    command: Literal["balance", "sweep", "compare", "tune"]
    game: str = Field(max_length=40)
    variant: str | None = Field(default=None, max_length=80, description="the value of the lab's variant option")
    rules: list[str] = Field(default_factory=list, max_length=20)
    patches: list[str] = Field(default_factory=list, max_length=20)
    entrants: str | None = Field(default=None, max_length=2000)
    cards: list[str] = Field(default_factory=list, max_length=20, description="card files in the lab folder")
    preset: Literal["quick", "default", "custom"] = "quick"
    agent: str | None = Field(default=None, max_length=200, description="the custom agent spec")
    agents: str | None = Field(default=None, max_length=400, description="compare: two agent specs A,B")
    games: int | None = Field(default=None, ge=1, le=10**8)
    seed: int = Field(default=0, ge=0, lt=2**63)
    mirrors: bool = False
    engine: Literal["auto", "reference", "cpu"] = "auto"
    workers: int | None = Field(default=None, ge=1, le=256)
    targets: list[str] = Field(default_factory=list, max_length=6)
    max_edits: int | None = Field(default=None, ge=1, le=6)
    budget: str | None = Field(default=None, max_length=20)


def _item(text: str, what: str) -> str:
    """An option value as one argv word: no option-looking text, no control characters."""
    text = text.strip()
    if not text or text.startswith("-") or any(ord(ch) < 32 for ch in text):
        raise Rejected(422, f"{what}: {text!r} is not a value")
    return text


def argv_of(form: RunForm, settings: LabSettings) -> list[str]:
    """The CLI arguments the form stands for (run in the lab folder); a 4xx for what the CLI would refuse."""
    if form.game not in game_names():
        raise Rejected(404, f"unknown game {form.game!r}; known games: {list(game_names())}")
    lab = game_class(form.game).lab()
    if lab is None:
        raise Rejected(422, f"{form.game} has no balance lab")
    argv = [form.command, form.game]
    if form.variant:
        if lab.variant_option is None:
            raise Rejected(422, f"{form.game} has no variant option")
        argv += [lab.variant_option.flag, _item(form.variant, lab.variant_option.flag)]
    for rule in form.rules:
        argv += ["--rule", _item(rule, "--rule")]
    for patch in form.patches:
        argv += ["--patch", _item(patch, "--patch")]
    if form.entrants:
        argv += ["--entrants", _entrants(form.entrants, settings)]
    for card in form.cards:
        settings.inside(card)
        argv += ["--cards", card]
    if form.command == "compare":
        if not form.agents:
            raise Rejected(422, "compare takes two agent specs A,B")
        argv += ["--agents", _item(form.agents, "--agents")]
    elif form.preset == "custom":
        if not form.agent:
            raise Rejected(422, "a custom agent needs its spec (e.g. ismcts:iterations=200)")
        argv += ["--agent", _item(form.agent, "--agent")]
    elif PRESETS[form.preset]:
        argv += ["--agent", str(PRESETS[form.preset])]
    if form.games is not None:
        argv += ["--games", str(form.games)]
    elif form.command == "compare":
        raise Rejected(422, "a compare run from the lab tops both tables up: give --games")
    if form.seed:
        argv += ["--seed", str(form.seed)]
    if form.mirrors:
        argv.append("--mirrors")
    if form.engine != "auto":
        argv += ["--engine", form.engine]
    if form.workers is not None:
        argv += ["--workers", str(form.workers)]
    if form.command == "tune":
        for target in form.targets:
            argv += ["--target", _item(target, "--target")]
        if form.max_edits is not None:
            argv += ["--max-edits", str(form.max_edits)]
        if form.budget:
            argv += ["--budget", _item(form.budget, "--budget")]
    if not settings.db_in_dir:
        argv += ["--db", str(settings.lab_db)]
    return argv


def _entrants(text: str, settings: LabSettings) -> str:
    """`--entrants`: ids, or deck files, which must be inside the lab folder like every other file."""
    for entrant in text.split(","):
        for part in entrant.split(":"):
            if part.strip().endswith(".toml"):
                settings.inside(part.strip())
    return _item(text, "--entrants")


def command_line(argv: list[str]) -> str:
    """The command to copy (run in the lab folder)."""
    return shlex.join(["cardlab", *argv])


def given_of(form: RunForm, settings: LabSettings) -> dict[str, Any]:
    """The form's options by name, as the CLI's parser hands them to the command (`vars(args)`): what the
    library's pre-flight reads (the CLI's own parser is a layer above the web app)."""
    lab = game_class(form.game).lab()
    variant_option = lab.variant_option if lab is not None else None
    given: dict[str, Any] = {
        "command": form.command, "game": form.game, "rule": list(form.rules), "patch": list(form.patches),
        "entrants": form.entrants, "cards": list(form.cards) or None, "games": form.games, "seed": form.seed,
        "mirrors": form.mirrors, "engine": form.engine, "workers": form.workers, "target": list(form.targets),
        "max_edits": form.max_edits or 2, "budget": form.budget,
        "agent": form.agent if form.preset == "custom" else PRESETS[form.preset], "agents": form.agents,
    }  # fmt: skip
    if variant_option is not None and form.variant:
        if variant_option.values and form.variant not in variant_option.values:
            raise Rejected(422, f"{variant_option.flag}: {form.variant!r} is not one of {list(variant_option.values)}")
        given[variant_option.name] = form.variant
    return given


def preflight(form: RunForm, settings: LabSettings) -> dict[str, Any]:
    """The form's command checked as the command checks itself before it plays (its table, agents and size),
    and what a job needs to follow it: the table it fills (balance) and the games it asks for at most."""
    from cardlab.sim.labview import planned_games
    from cardlab.sim.prepare import check_agents, lab_matchups, table_agent

    given = given_of(form, settings)
    args = argparse.Namespace(**given)
    try:
        size = planned_games(args.command, given)
        table = None
        if args.command == "compare":
            specs = [spec.strip() for spec in args.agents.split(",")]
            if len(specs) != 2 or not all(specs):
                raise CardlabError(f"--agents takes two agent specs separated by a comma, got {args.agents!r}")
            check_agents(specs, args.game)
        else:
            matchups = lab_matchups(args.game, given) if args.command == "balance" else None
            base = matchups or _base(args.game, given)
            agent = table_agent(args.agent, base)[0]
            check_agents((agent,), args.game)
            if matchups is not None:
                table = {"game": args.game, "variant": matchups.variant, "agent": agent}
    except (CardlabError, ValueError) as exc:
        raise Rejected(422, str(exc)) from None
    if size > settings.max_job_games:
        raise Rejected(413, f"this job asks for {size:,} games; the lab runs at most {settings.max_job_games:,} a job")
    return {"command": args.command, "game": args.game, "games": size, "table": table}


def _base(game: str, given: dict[str, Any]) -> Any:
    from cardlab.sim.prepare import lab_base

    return lab_base(game, given)
