"""OpenSpiel players as cardlab agents: `openspiel:policy=FILE` and `openspiel:bot=ismcts` (docs/openspiel.md).

`policy=FILE` plays a tabular policy saved by `cardlab.envs.openspiel.save_policy` (e.g. outcome-sampling
MCCFR's average policy): per information state (a hash of the seat's canonical observation JSON, the
OpenSpiel game's `information_state_string`) the probability of each legal action id, in ascending order;
an information state the file does not hold is played uniformly at random, as OpenSpiel's own average
policy does. Playing a file needs no OpenSpiel. `bot=ismcts` runs OpenSpiel's Python ISMCTS
(`simulations`, `uct_c`; random rollouts) through the adapter (`cardlab.adapters.openspiel`, a layer below
the agents), from the seat's canonical world.
"""

from __future__ import annotations

import json
import random
from functools import cache
from typing import Any, ClassVar

from cardlab.adapters.policy import POLICY_FORMAT, infostate_key
from cardlab.agents.base import format_spec
from cardlab.core.encoding import information_state_string
from cardlab.core.extras import needs_extra
from cardlab.core.game import Action, InfoSet
from cardlab.core.specs import AgentSpecError

__all__ = ["BOTS", "POLICY_FORMAT", "OpenSpielAgent", "infostate_key", "load_policy"]

BOTS = ("ismcts",)


@cache
def load_policy(path: str) -> dict[str, Any]:
    """A policy file's contents; an AgentSpecError naming the file and the problem."""
    try:
        with open(path, encoding="utf-8") as file:
            data = json.load(file)
        if data.get("format") != POLICY_FORMAT:
            raise ValueError(f"not a {POLICY_FORMAT} file")
        for field in ("game", "config", "policy"):
            if field not in data:
                raise ValueError(f"missing field {field!r}")
    except (OSError, ValueError, AttributeError) as exc:
        raise AgentSpecError(f"openspiel: cannot read {path}: {exc}") from None
    return dict(data)


class OpenSpielAgent:
    """A saved OpenSpiel policy, or an OpenSpiel bot searching the seat's information set."""

    params: ClassVar[dict[str, type]] = {"policy": str, "bot": str, "simulations": int, "uct_c": float}

    def __init__(self, policy: str = "", bot: str = "", simulations: int = 100, uct_c: float = 2.0) -> None:
        if bool(policy) == bool(bot):
            raise ValueError(f"openspiel needs policy=FILE or bot={'|'.join(BOTS)} (one of them)")
        if bot and bot not in BOTS:
            raise ValueError(f"openspiel: unknown bot {bot!r}; bots: {', '.join(BOTS)}")
        if bot and simulations < 2:  # OpenSpiel's ISMCTS has no visit to choose from after one
            raise ValueError("openspiel: simulations must be at least 2")
        self.policy_path, self.bot, self.simulations, self.uct_c = policy, bot, simulations, uct_c
        self.table = load_policy(policy) if policy else None
        defaults: dict[str, Any] = {"simulations": 100, "uct_c": 2.0}
        given: dict[str, Any] = (
            {"policy": policy} if policy else {"bot": bot, "simulations": simulations, "uct_c": uct_c}
        )
        self.spec = format_spec("openspiel", given, defaults)

    def prepare(self, game: str) -> None:
        """Refuse another game's policy now; a bot needs OpenSpiel installed."""
        if self.table is not None and self.table["game"] != game:
            raise ValueError(f"policy {self.policy_path} was trained for {self.table['game']}, not {game}")
        if self.bot:
            try:
                import cardlab.adapters.openspiel  # noqa: F401 (registers the games)
            except ImportError:
                raise ValueError(needs_extra("openspiel:bot", "openspiel")) from None

    def act(self, infoset: InfoSet, rng: random.Random) -> Action:
        legal = sorted(infoset.legal_actions, key=int)  # OpenSpiel's order
        if self.table is None:
            return self._search(infoset, rng, legal)
        if information_state_string(self.table["config"]) != information_state_string(infoset.game.config_json()):
            raise AgentSpecError(f"policy {self.policy_path} was trained for config {self.table['config']}")
        probabilities = self.table["policy"].get(infostate_key(information_state_string(infoset.observation)))
        if probabilities is None or len(probabilities) != len(legal):
            return rng.choice(legal)
        return rng.choices(legal, weights=probabilities)[0]

    def _search(self, infoset: InfoSet, rng: random.Random, legal: list[Action]) -> Action:
        import numpy as np
        from open_spiel.python.algorithms import ismcts, mcts

        from cardlab.adapters.openspiel import openspiel_state

        state = openspiel_state(infoset.canonical_world)
        stream = np.random.RandomState(rng.getrandbits(32))
        evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=stream)
        bot = ismcts.ISMCTSBot(state.get_game(), evaluator, self.uct_c, self.simulations, random_state=stream)
        bot.set_resampler(lambda world, player: world.resample_from_infostate(player, stream.uniform))
        chosen = int(bot.step(state))
        return next(action for action in legal if int(action) == chosen)
