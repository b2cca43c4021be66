"""Single-observer information-set MCTS (Cowling, Powley & Whitehouse, IEEE TCIAIG 2012).

Each iteration samples a world consistent with the agent's information set, descends one shared
tree keyed by action histories (only actions legal in that world compete, with UCB using
availability counts), expands one node, finishes the game with a rollout policy and backs up
the result for the player who made each move. With `depth`, a rollout stops after that many actions
and the game's position estimate (`Game.evaluator`) stands in for the result: a cheaper iteration,
judged by the heuristic's view of the position. Game-agnostic: it uses only the core protocol.
"""

from __future__ import annotations

import math
import random
import time
from typing import Any, ClassVar

from cardlab.agents.base import format_spec
from cardlab.agents.policies import FastRollout, Policy, fast_rollout, policy_by_name
from cardlab.core.extras import needs_extra
from cardlab.core.game import Action, Evaluator, InfoSet, Player, State
from cardlab.core.plugin import CompiledSearch
from cardlab.games import game_class, game_names


class _Node:
    __slots__ = ("available", "children", "player", "reward", "visits")

    def __init__(self, player: Player) -> None:
        self.player = player  # who chose the move leading here (the root's: the searcher, never read)
        self.children: dict[Action, _Node] = {}
        self.visits = 0
        self.available = 0  # how often this move was legal when its parent was visited
        self.reward = 0.0


def _ucb(node: _Node, c: float) -> float:
    """UCB1 with availability counts in place of the parent's visits (ISMCTS)."""
    return node.reward / node.visits + c * math.sqrt(math.log(node.available) / node.visits)


def _searchable() -> str:
    """The registered games with a compiled search (one whose extra is missing still counts)."""

    def has_search(name: str) -> bool:
        try:
            return game_class(name).compiled_search() is not None
        except ImportError:
            return True

    return ", ".join(name for name in game_names() if has_search(name)) or "no game"


class ISMCTSAgent:
    """SO-ISMCTS with a fixed iteration budget or a time budget per decision.

    Deterministic for a given RNG when the budget is iterations (time budgets depend on speed).
    """

    params: ClassVar[dict[str, type]] = {
        "iterations": int, "time": float, "c": float, "rollout": str, "backend": str, "depth": int,
    }  # fmt: skip
    _DEFAULTS: ClassVar[dict[str, object]] = {
        "iterations": 1000, "time": 0.0, "c": 0.7, "rollout": "random", "backend": "python", "depth": 0,
    }  # fmt: skip
    BACKENDS = ("python", "cpu")
    """`python`: this module, for every game; `cpu`: the game's compiled search, where it has one."""

    def __init__(
        self,
        iterations: int = 1000,
        time: float = 0.0,
        c: float = 0.7,
        rollout: str = "random",
        backend: str = "python",
        depth: int = 0,
    ) -> None:
        if rollout not in ("random", "heuristic", "fast"):
            raise ValueError(f"rollout must be 'random', 'heuristic' or 'fast', not {rollout!r}")
        if backend not in self.BACKENDS:
            raise ValueError(f"backend must be 'python' or 'cpu', not {backend!r}")
        if iterations < 1 and time <= 0:
            raise ValueError("give iterations >= 1 or time > 0")
        if depth < 0:
            raise ValueError(f"depth must be >= 0 (0: rollouts to the end), not {depth}")
        if depth and rollout == "fast":
            raise ValueError("depth cuts random or heuristic rollouts, not rollout=fast (a whole compiled game)")
        self.iterations = iterations
        self.time = time
        self.c = c
        self.rollout = rollout
        self.backend = backend
        self.depth = depth
        """Rollout actions before the game's position estimate (`Game.evaluator`) stands in for the end (0: none)."""
        params = {
            "iterations": iterations,
            "time": time,
            "c": c,
            "rollout": rollout,
            "backend": backend,
            "depth": depth,
        }
        self.spec = format_spec("ismcts", params, self._DEFAULTS)
        self._searches: dict[str, CompiledSearch] = {}
        self._trees: dict[str, Any] = {}  # per game, the compiled search's buffers, made on first use
        self.max_seconds: float | None = None
        """A cap on thinking time per decision, whatever the budget (a server bounds its agents)."""
        self._rollouts: dict[str, tuple[Policy | None, FastRollout | None]] = {}
        self._evaluators: dict[str, Evaluator] = {}

    def prepare(self, game_name: str) -> None:
        """Resolve the rollout policy for `game_name`; a ValueError if that game has none."""
        if self.backend == "cpu":
            if game_name not in self._searches:
                try:
                    search = game_class(game_name).compiled_search()
                except ImportError:
                    raise ValueError(needs_extra("backend=cpu", "fast")) from None
                if search is None:
                    raise ValueError(f"backend=cpu searches {_searchable()} only, not {game_name}")
                if self.depth and not search.cuts_rollouts:
                    raise ValueError(f"depth={self.depth}: {game_name}'s compiled search plays its rollouts to the end")
                self._searches[game_name] = search
            return
        if game_name not in self._rollouts:
            if self.rollout == "fast":  # the compiled kernel plays heuristic rollouts
                self._rollouts[game_name] = (None, fast_rollout(game_name))
            else:
                self._rollouts[game_name] = (policy_by_name(game_name, self.rollout), None)
        if self.depth and game_name not in self._evaluators:
            evaluate = game_class(game_name).evaluator()
            if evaluate is None:
                raise ValueError(f"depth={self.depth} needs the game's position estimate, and {game_name} has none")
            self._evaluators[game_name] = evaluate

    def act(self, infoset: InfoSet, rng: random.Random) -> Action:
        legal = infoset.legal_actions
        if len(legal) == 1:
            return legal[0]
        self.prepare(infoset.game.name)
        now = time.perf_counter()
        deadline = now + self.time if self.time > 0 else None
        if self.max_seconds is not None:
            deadline = min(deadline or math.inf, now + self.max_seconds)
        if self.backend == "cpu":
            return self._act_compiled(infoset, rng, None if deadline is None else deadline - now)
        policy, fast = self._rollouts[infoset.game.name]
        evaluate = self._evaluators.get(infoset.game.name)
        root = _Node(infoset.player)
        iteration = 0
        while self.time > 0 or iteration < self.iterations:
            if deadline is not None and time.perf_counter() >= deadline:
                break
            self._iterate(root, infoset.sample_world(rng), rng, policy, fast, evaluate)
            iteration += 1
        tried = [action for action in legal if action in root.children]
        if not tried:
            return legal[0]
        return max(tried, key=lambda action: root.children[action].visits)  # ties: the first legal

    def _act_compiled(self, infoset: InfoSet, rng: random.Random, seconds: float | None) -> Action:
        """The same search compiled (the game's `compiled_search()`), from the canonical world.

        A time budget (or a server's cap) bounds it by the clock; otherwise it runs exactly its
        iterations, so the answer is a function of the information set and the RNG only.
        """
        search = self._searches[infoset.game.name]
        iterations = 0 if self.time > 0 else self.iterations  # a time budget replaces the iterations
        tree = self._trees.get(infoset.game.name)
        if tree is None:
            tree = self._trees[infoset.game.name] = search.new_tree(
                iterations + 1 if iterations else search.time_capacity
            )
        action_id = search.choose(
            infoset.canonical_world,
            iterations,
            self.c,
            self.rollout,
            rng.getrandbits(62),
            seconds or 0.0,
            tree,
            self.depth,
        )
        legal = infoset.legal_actions
        chosen = next((action for action in legal if int(action) == action_id), None)
        return chosen if chosen is not None else legal[0]

    def _iterate(
        self,
        root: _Node,
        world: State,
        rng: random.Random,
        policy: Policy | None,
        fast: FastRollout | None,
        evaluate: Evaluator | None,
    ) -> None:
        path = [root]
        node = root
        # Selection and expansion: descend while every legal move has been tried.
        while (player := world.current_player()) is not None:
            legal = world.legal_actions()
            children = node.children
            untried = [action for action in legal if action not in children]
            for action in legal:
                child = children.get(action)
                if child is not None:
                    child.available += 1
            if untried:
                action = rng.choice(untried)
                node = children[action] = _Node(player)
                node.available = 1
                world.apply(action)
                path.append(node)
                break
            c = self.c
            action = max(legal, key=lambda a: _ucb(children[a], c))
            node = children[action]
            world.apply(action)
            path.append(node)
        # Rollout to the end of the game, or for `depth` actions and then the game's estimate.
        if fast is not None:
            returns = fast(world, "heuristic", rng.getrandbits(62)) if not world.is_terminal() else world.returns()
        else:
            assert policy is not None
            steps, depth = 0, self.depth
            while world.current_player() is not None and (not depth or steps < depth):
                world.apply(policy(world, rng))
                steps += 1
            if evaluate is None or world.is_terminal():
                returns = world.returns()
            else:
                first = 2.0 * evaluate(world, 0) - 1.0
                returns = (first, -first)
        root.visits += 1
        for visited in path[1:]:
            visited.visits += 1
            visited.reward += (returns[visited.player] + 1.0) / 2.0
