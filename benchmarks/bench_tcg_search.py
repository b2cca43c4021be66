"""Search on the TCGs (issue #19): the cost of an ISMCTS iteration, and of a decision of the searches.

For Aterial and Dreadnought, at positions reached by heuristic play (one core, this process):

- `ismcts:iterations=I` with random rollouts to the end (the issue's baseline), and with rollouts cut
  after `depth` actions and judged by the game's position estimate (`Game.evaluator`): ms per
  iteration (decision time / iterations);
- `pimc` (the rollout search over whole decisions) at the specs the ladders in docs/agents.md use:
  ms per decision, and how many whole decisions it compares against the first actions alone.

Writes the `tcg-search` section of BENCHMARKS.md (`--dry-run` prints it). Run on an idle machine:
`python benchmarks/bench_tcg_search.py`.
"""

from __future__ import annotations

import argparse
import datetime
import random
import statistics
import time

from _report import machine, write_section
from cardlab.agents import make_agent
from cardlab.agents.pimc import whole_decisions
from cardlab.core.game import State
from cardlab.games import game_class
from cardlab.sim.positions import reached_positions

SEARCHES = {
    "aterial": {"depth": 20, "pimc": "pimc", "target_ms": 0.4},
    "dreadnought": {"depth": 20, "pimc": "pimc:worlds=6:depth=20", "target_ms": 1.3},
}
"""Per game: the rollout cut measured, the pimc spec of its ladder, and the issue's per-iteration target."""


def decision_ms(spec: str, name: str, states: list[State], repeats: int) -> float:
    """Median over runs of the mean ms per decision of the agent `spec` at `states`."""
    agent = make_agent(spec, name)
    runs = []
    for repeat in range(repeats):
        start = time.perf_counter()
        for index, state in enumerate(states):
            player = state.current_player()
            assert player is not None
            agent.act(state.infoset(player), random.Random(repeat * 1009 + index))
        runs.append((time.perf_counter() - start) * 1000 / len(states))
    return statistics.median(runs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--positions", type=int, default=20)
    parser.add_argument("--iterations", type=int, default=200)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--dry-run", action="store_true", help="print the section instead of writing it")
    args = parser.parse_args()
    n, i, r = args.positions, args.iterations, args.repeats
    lines = [
        f"Measured {datetime.date.today()} on {machine()}; one core, {n} positions per game reached by heuristic "
        f"play, medians of {r} runs. An ISMCTS iteration samples a world, descends the tree, expands a node "
        "and rolls out with random moves: to the end (the baseline), or for `depth` actions and then the "
        "game's position estimate (`Game.evaluator`). The engines' own steps are unchanged: the cut iteration "
        "is cheaper because it plays fewer of them.",
        "",
        f"| game | `ismcts:iterations={i}`, to the end | `...:depth=D` | target | `pimc` spec | ms per decision "
        "| whole decisions / first actions |",
        "|---|---:|---:|---:|---|---:|---:|",
    ]
    for name, search in SEARCHES.items():
        states = reached_positions(name, n)
        full = decision_ms(f"ismcts:iterations={i}", name, states, r) / i
        cut = decision_ms(f"ismcts:iterations={i}:depth={search['depth']}", name, states, r) / i
        pimc = decision_ms(str(search["pimc"]), name, states, r)
        policy = game_class(name).heuristic()
        assert policy is not None
        wholes = [len(whole_decisions(state, policy, random.Random(0), 12)) for state in states]
        firsts = [len(state.legal_actions()) for state in states]
        lines.append(
            f"| {name} | {full:.2f} ms | {cut:.2f} ms (D={search['depth']}, {full / cut:.1f}x) | "
            f"≤ {search['target_ms']} ms | `{search['pimc']}` | {pimc:.0f} | "
            f"{statistics.mean(wholes):.1f} / {statistics.mean(firsts):.1f} |"
        )
    body = "## Search on the TCGs (issue #19)\n\n" + "\n".join(lines)
    print(body) if args.dry_run else write_section("tcg-search", body)


if __name__ == "__main__":
    main()
