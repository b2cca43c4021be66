"""Determinized rollout search over whole decisions: an improvement of the game's own heuristic.

At a decision the agent lists the player's whole choices (`whole_decisions`: a card together with
its destination, targets and payment, as `State.continues_decision` marks them), samples worlds
consistent with its information set, and scores every choice in every world by letting the
heuristic play both players after it: to the end, or for `depth` decisions and then the
heuristic's own estimate of the position (`Game.evaluator`). All choices are scored on the same
worlds and rollout streams (common random numbers), so their differences are the choices' own, and
are halved round by round (sequential halving, Karnin, Koren & Somekh 2013) so that the best get
the most worlds. The heuristic's own choice is scored on every world and is kept unless another
beats it by `margin` standard errors of their paired differences.

This is Perfect Information Monte Carlo (Ginsberg's GIB; Long, Sturtevant, Buro & Furtak 2010 on
why it works in card games) with rollouts of a base policy, which improves on that policy
(Tesauro & Galperin 1996). Game-agnostic: it uses only the core protocol and the game's heuristic.
"""

from __future__ import annotations

import math
import random
import time
from typing import ClassVar

from cardlab.agents.base import format_spec
from cardlab.core.game import Action, Evaluator, InfoSet, Player, Policy, State
from cardlab.games import game_class

MAX_WIDTH = 64
"""The most whole decisions branched on: listing them costs a clone per step, before any deadline."""

Decision = tuple[Action, ...]
"""A whole decision: its first action and the actions that finish it (destination, target, payment)."""


def _continues(state: State, player: Player) -> bool:
    return state.current_player() == player and state.continues_decision()


def _follow(state: State, player: Player, policy: Policy, rng: random.Random) -> Decision:
    """Let `policy` finish the decision under way in `state` (applied in place); the actions it took."""
    taken: list[Action] = []
    while _continues(state, player):
        action = policy(state, rng)
        state.apply(action)
        taken.append(action)
    return tuple(taken)


def whole_decisions(world: State, policy: Policy, rng: random.Random, width: int) -> list[Decision]:
    """The player's whole decisions at `world`, the policy's own first, then in legal-action order.

    Every legal action starts one; the decisions that continue it are branched on in full while the
    count stays within `width`, and beyond that the policy finishes them (move ordering by the
    heuristic where the branching is large). `world` itself is not changed.
    """
    player = world.current_player()
    assert player is not None, "no decision in a finished game"
    own_start = world.clone()
    first = policy(own_start, rng)
    own_start.apply(first)
    own = (first, *_follow(own_start, player, policy, rng))
    done: list[Decision] = []
    growing: list[tuple[Decision, State]] = []
    for action in world.legal_actions():
        child = world.clone()
        child.apply(action)
        if _continues(child, player):
            growing.append(((action,), child))
        else:
            done.append((action,))
    while growing:
        taken, state = growing.pop(0)
        options = state.legal_actions()
        if len(done) + len(growing) + len(options) <= width:
            for action in options:
                child = state.clone()
                child.apply(action)
                grown = (*taken, action)
                if _continues(child, player):
                    growing.append((grown, child))
                else:
                    done.append(grown)
        else:
            done.append((*taken, *_follow(state, player, policy, rng)))
    return [own, *(decision for decision in dict.fromkeys(done) if decision != own)]


class PIMCAgent:
    """Whole decisions scored by heuristic rollouts on sampled worlds (see the module docstring).

    `worlds`: worlds per choice on average (the budget is `worlds` x the number of choices, spent
    by sequential halving); `time`: seconds per decision instead (0: use `worlds`); `depth`: the
    decisions played after a choice before the position is estimated (0: play to the end); `width`:
    the whole decisions branched on in full; `margin`: how many standard errors another choice must
    beat the heuristic's by. Deterministic for a given RNG when the budget is worlds.
    """

    params: ClassVar[dict[str, type]] = {"worlds": int, "time": float, "depth": int, "width": int, "margin": float}
    _DEFAULTS: ClassVar[dict[str, object]] = {"worlds": 16, "time": 0.0, "depth": 0, "width": 12, "margin": 1.0}

    def __init__(
        self, worlds: int = 16, time: float = 0.0, depth: int = 0, width: int = 12, margin: float = 1.0
    ) -> None:
        if worlds < 1 and time <= 0:
            raise ValueError("give worlds >= 1 or time > 0")
        if not 1 <= width <= MAX_WIDTH:
            raise ValueError(f"width must be 1 to {MAX_WIDTH}")
        self.worlds, self.time, self.depth, self.width, self.margin = worlds, time, depth, width, margin
        params = {"worlds": worlds, "time": time, "depth": depth, "width": width, "margin": margin}
        self.spec = format_spec("pimc", params, self._DEFAULTS)
        self.max_seconds: float | None = None
        """A cap on thinking time per decision, whatever the budget (a server bounds its agents)."""
        self._parts: dict[str, tuple[Policy, Evaluator | None]] = {}

    def prepare(self, game_name: str) -> None:
        """Find the game's heuristic (and its estimate, for `depth`); a ValueError if it lacks them."""
        if game_name in self._parts:
            return
        game = game_class(game_name)
        policy = game.heuristic()
        if policy is None:
            raise ValueError(f"pimc plays the game's heuristic in its rollouts, and {game_name} has none")
        evaluate = game.evaluator()
        if self.depth > 0 and evaluate is None:
            raise ValueError(f"depth={self.depth} needs the game's position estimate, and {game_name} has none")
        self._parts[game_name] = (policy, evaluate)

    def act(self, infoset: InfoSet, rng: random.Random) -> Action:
        legal = infoset.legal_actions
        if len(legal) == 1:
            return legal[0]
        self.prepare(infoset.game.name)
        policy, evaluate = self._parts[infoset.game.name]
        me = infoset.player
        choices = whole_decisions(infoset.canonical_world, policy, random.Random(rng.getrandbits(64)), self.width)
        if len(choices) == 1:
            return choices[0][0]
        start, seconds = time.perf_counter(), self._seconds()
        scores: list[list[float]] = [[] for _ in choices]  # per choice, its score in each world it played
        alive = list(range(len(choices)))  # the heuristic's choice (0) is the yardstick and stays to the end
        rounds = max(1, math.ceil(math.log2(len(choices) - 1)) + 1)
        budget = self.worlds * len(choices)  # rollouts in all, when the budget is worlds
        for round_index in range(rounds):
            # A time budget is split evenly between the rounds; a worlds budget between the rounds' rollouts.
            ends = None if seconds is None else start + seconds * (round_index + 1) / rounds
            per_choice = max(1, budget // (rounds * len(alive))) if self.time <= 0 else 1 << 30
            for played in range(per_choice):
                if ends is not None and played and time.perf_counter() >= ends:
                    break
                world, seed = infoset.sample_world(rng), rng.getrandbits(64)
                for index in alive:
                    scores[index].append(self._score(world.clone(), choices[index], me, policy, evaluate, seed))
            if round_index < rounds - 1 and len(alive) > 2:  # the better half of the others goes on
                others = sorted(alive[1:], key=lambda index: (-sum(scores[index]), index))
                alive = [0, *sorted(others[: len(others) // 2 or 1])]
        return choices[self._pick(scores, alive)][0]

    def _pick(self, scores: list[list[float]], alive: list[int]) -> int:
        """The best other choice if it beats the heuristic's by `margin` standard errors of their paired
        differences (the same worlds), else the heuristic's: a lucky score on few worlds is no reason."""
        best = max(alive[1:], key=lambda index: (sum(scores[index]), -index))
        # One world where the two tie is added (a prior of no difference), so that a few equal
        # differences never count as certain.
        differences = [0.0, *(mine - yardstick for mine, yardstick in zip(scores[best], scores[0], strict=True))]
        mean = sum(differences) / len(differences)
        spread = math.sqrt(sum((d - mean) ** 2 for d in differences) / (len(differences) - 1))
        return best if mean > 0 and mean > self.margin * spread / math.sqrt(len(differences)) else 0

    def _seconds(self) -> float | None:
        """The time budget of this decision (`time`, capped by `max_seconds`), None for a worlds budget."""
        seconds = self.time if self.time > 0 else None
        if self.max_seconds is not None:
            seconds = min(seconds or math.inf, self.max_seconds)
        return seconds

    def _score(
        self, world: State, choice: Decision, me: Player, policy: Policy, evaluate: Evaluator | None, seed: int
    ) -> float:
        """`me`'s result in `world` after `choice` and the heuristic's rollout: 1 a win, 0 a loss."""
        rng = random.Random(seed)
        for step, action in enumerate(choice):
            if step and not _continues(world, me):  # in this world the decision ended sooner
                break
            # A choice listed on the canonical world may not fit a sampled one; the heuristic then picks.
            world.apply(action if action in world.legal_actions() else policy(world, rng))
        steps = 0
        while world.current_player() is not None and (self.depth == 0 or steps < self.depth):
            world.apply(policy(world, rng))
            steps += 1
        outcome = world.outcome()
        if outcome is not None:
            return 0.5 if outcome.winner is None else float(outcome.winner == me)
        assert evaluate is not None
        return evaluate(world, me)
