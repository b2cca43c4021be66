"""A mutation run over a fixed list of one-line bugs (issue #37, item 2): does the test file that names
a behaviour fail when that behaviour breaks?

Each mutation is one realistic bug (a flipped comparison, an off-by-one, a dropped condition, filter or
token check) in rules, search, statistics, store or web-security code, with the test file(s) that name
the behaviour. A mutation counts as killed when those files fail with it, and only those: a bug caught
somewhere else in the suite still means the file that claims the behaviour does not check it.

The working tree is never touched. The committed tree (`git archive HEAD`) is unpacked into a temporary
directory; the test files in `EXTRA_TESTS` (tests added since HEAD, not yet committed) are copied over
from the working tree, and nothing else is (never a file under src/). Each mutation is applied there, one
at a time, its files run with `python -m pytest -x -q -p no:cacheprovider` under
`PYTHONPATH=<copy>/src:<copy>`, and the line restored. The unmutated named files run once first: a
mutation on a failing base proves nothing. A run past `--timeout` counts as killed by timeout and is
reported apart.

Run: `.venv/bin/python benchmarks/mutation_run.py [--only SUBSTRING] [--timeout SECONDS] [--head]`; writes
`benchmarks/results/mutation.md` (`mutation-head.md` with `--head`: HEAD's tests alone, the rate before
`EXTRA_TESTS`; `-only` added with `--only`) and prints the kill rate. A named file absent from the tree
(a new one under `--head`) is dropped; a mutation left with none is reported as having no test file.
"""

from __future__ import annotations

import argparse
import datetime
import os
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "benchmarks" / "results"

EXTRA_TESTS = (
    "tests/agents/test_ismcts.py",
    "tests/agents/test_pimc.py",
    "tests/sim/test_stats.py",
    "tests/store/test_games_db.py",
    "tests/store/test_fingerprint.py",
    "tests/games/edelweiss/test_rules.py",
    "tests/games/dreadnought/test_rules.py",
    "tests/web/test_security_mutations.py",
)
"""Test files copied from the working tree into the copy of HEAD (the tests this run added; the lead
commits them). Tests only: the code under test is always HEAD's."""


@dataclass(frozen=True)
class Mutation:
    area: str
    file: str  # under src/cardlab/
    original: str  # a substring of exactly one line of the file
    replacement: str
    tests: tuple[str, ...]
    description: str


E, A, D = "games/edelweiss/state.py", "games/aterial/state.py", "games/dreadnought/state.py"
E_RULES, A_RULES, D_RULES = (f"tests/games/{g}/test_rules.py" for g in ("edelweiss", "aterial", "dreadnought"))
ISMCTS, PIMC = "tests/agents/test_ismcts.py", "tests/agents/test_pimc.py"
STATS = "tests/sim/test_stats.py"
COMPARE = tuple(
    f"tests/sim/test_compare.py::{name}"
    for name in (
        "test_newcombe_interval_matches_the_published_example",
        "test_newcombe_interval_covers_the_true_difference_about_95_percent_of_the_time",
        "test_pooled_z_test_matches_a_hand_computation",
        "test_pooled_z_test_holds_its_level_under_the_null",
        "test_cells_are_tested_together_with_holm",
        "test_each_entrant_is_totalled_over_its_pairings_and_seats",
        "test_identical_tables_find_no_difference_and_say_the_tests_resolution",
        "test_the_resolution_is_the_smallest_difference_the_test_flags",
        "test_missing_games_top_each_pairing_up_to_the_lower_seat",
    )
)
"""test_compare.py's unit tests: its command tests play tables for seven minutes and name no statistic."""
DB, FP = "tests/store/test_games_db.py", "tests/store/test_fingerprint.py"
WEB = "tests/web/test_security_mutations.py"
HOLES, LEAK = "tests/web/test_web_holes.py", "tests/web/test_web_leak.py"

MUTATIONS: tuple[Mutation, ...] = (
    # -- rules ---------------------------------------------------------------------------------------
    Mutation(
        "rules",
        E,
        "self._finish(0 if sizes[0] > sizes[1] else 1",
        "self._finish(0 if sizes[0] >= sizes[1] else 1",
        (E_RULES,),
        "E6.2: a deck-out with equal hands goes to P1 instead of P2",
    ),
    Mutation(
        "rules",
        E,
        "self._after_defense(suit == DIAMOND)",
        "self._after_defense(False)",
        (E_RULES,),
        "E5.3 a: a diamond guard no longer causes a counter",
    ),
    Mutation(
        "rules",
        E,
        'self._finish(self.turn_player, "attack")',
        'self._finish(1 - self.turn_player, "attack")',
        (E_RULES,),
        "E6.1: an undefended attack wins for the defender",
    ),
    Mutation(
        "rules",
        E,
        "if _find(self.fields[tp], _UPRIGHT_CLUB) < 0:",
        "if _find(self.fields[tp], _UPRIGHT_CLUB) <= 0:",
        (E_RULES,),
        "E5.4: an upright club at field index 0 is not seen (off-by-one)",
    ),
    Mutation(
        "rules",
        E,
        "if _find(field, _UPRIGHT_CLUB) >= 0 and _find(field, _TAPPED_HEART) >= 0:",
        "if _find(field, _UPRIGHT_CLUB) >= 0:",
        (E_RULES,),
        "E5.2: Lionheart offered without a tapped heart (dropped condition)",
    ),
    Mutation(
        "rules",
        A,
        "damage[inst] >= self.hp_value(inst)",
        "damage[inst] > self.hp_value(inst)",
        (A_RULES,),
        "A15.4: a unit with damage equal to its HP survives",
    ),
    Mutation(
        "rules",
        A,
        "if self.lp[p] <= 0 or (deck_out_empty",
        "if self.lp[p] < 0 or (deck_out_empty",
        (A_RULES,),
        "A15.1: a leader at exactly 0 LP does not lose",
    ),
    Mutation(
        "rules",
        A,
        "self.lp[player] = min(self.cards[self.leader[player]].lp, self.lp[player] + amount)",
        "self.lp[player] = self.lp[player] + amount",
        (A_RULES,),
        "A14.4: heals exceed the starting LP",
    ),
    Mutation(
        "rules",
        A,
        'dealt = max(0, amount - self.amounts[inst].get("armor", 0))',
        "dealt = amount",
        (A_RULES,),
        "A17.4: armor no longer reduces damage",
    ),
    Mutation(
        "rules",
        A,
        'loss = card.cost + self.amounts[attacker].get("siege", 0)',
        "loss = card.cost",
        (A_RULES,),
        "A17.7: siege no longer adds to the LP loss",
    ),
    Mutation(
        "rules",
        A,
        "if self.turn == 1:  # A12.1",
        "if self.turn == 0:  # A12.1",
        (A_RULES,),
        "A12.1: the first player may attack on turn 1",
    ),
    Mutation(
        "rules",
        A,
        "return 0 if field[0] != EMPTY or field[1] != EMPTY or field[2] != EMPTY else 1",
        "return 0 if field[0] != EMPTY or field[1] != EMPTY else 1",
        (A_RULES,),
        "A12.4: a unit on F2 alone does not make the front row engaged",
    ),
    Mutation(
        "rules",
        A,
        "self.supply(player, sq) >= needed]",
        "self.supply(player, sq) > needed]",
        (A_RULES,),
        "A11.3: supply exactly equal to the cost does not allow a deployment",
    ),
    Mutation(
        "rules",
        D,
        "sum(self.weight(u) for u in units) + obj_weight <= AREA_WEIGHT",
        "sum(self.weight(u) for u in units) + obj_weight < AREA_WEIGHT",
        (D_RULES,),
        "D8.3: a battle area cannot reach its weight limit exactly",
    ),
    Mutation(
        "rules",
        D,
        "out = [all(not self.hp[p][a] for a in (BA1, BA2))",
        "out = [any(not self.hp[p][a] for a in (BA1, BA2))",
        (D_RULES,),
        "D21.1: one caster at 0 HP loses the game",
    ),
    Mutation(
        "rules",
        D,
        "self._finish(None if out[0] and out[1] else (1 if out[0] else 0)",
        "self._finish((1 if out[0] else 0)",
        (D_RULES,),
        "D21.1: both players out is a P2 win, not a draw",
    ),
    Mutation(
        "rules",
        D,
        "if obj in self.attackers:  # an attacker that leaves",
        "if False:  # an attacker that leaves",
        (D_RULES,),
        "D10.7: an attacker that leaves the field still deals damage",
    ),
    Mutation(
        "rules",
        D,
        "return min(5, base + self.speed_shift[player])",
        "return min(4, base + self.speed_shift[player])",
        (D_RULES,),
        "D6.2: speed capped one grade below A+++",
    ),
    Mutation(
        "rules",
        D,
        "return shortfall <= 0 and len(pool) - used >= discard",
        "return shortfall <= 0 and len(pool) - used > discard",
        (D_RULES,),
        "D12.4: a cost payable with exactly the cards in hand is refused",
    ),
    # -- search --------------------------------------------------------------------------------------
    Mutation(
        "search",
        "agents/ismcts.py",
        "child.available += 1",
        "pass",
        (ISMCTS,),
        "availability counts never grow: the exploration term vanishes",
    ),
    Mutation(
        "search",
        "agents/ismcts.py",
        "node.visits + c * math.sqrt",
        "node.visits - c * math.sqrt",
        (ISMCTS,),
        "UCB's exploration bonus subtracted",
    ),
    Mutation(
        "search",
        "agents/ismcts.py",
        "return max(tried, key=lambda action: root.children[action].visits)",
        "return min(tried, key=lambda action: root.children[action].visits)",
        (ISMCTS,),
        "the least visited move is played",
    ),
    Mutation(
        "search",
        "agents/ismcts.py",
        "visited.reward += (returns[visited.player] + 1.0)",
        "visited.reward += (returns[1 - visited.player] + 1.0)",
        (ISMCTS,),
        "results backed up for the wrong player",
    ),
    Mutation(
        "search",
        "agents/ismcts.py",
        "first = 2.0 * evaluate(world, 0) - 1.0",
        "first = 2.0 * evaluate(world, 1) - 1.0",
        (ISMCTS,),
        "depth: the estimate read from the wrong player's side",
    ),
    Mutation(
        "search",
        "agents/pimc.py",
        "return best if mean > 0 and mean > self.margin * spread",
        "return best if mean > 0 or mean > self.margin * spread",
        (PIMC,),
        "the margin test dropped: any better mean overrides the heuristic",
    ),
    Mutation(
        "search",
        "agents/pimc.py",
        "differences = [0.0, *(",
        "differences = [*(",
        (PIMC,),
        "the prior tie world dropped: a few equal differences count as certain",
    ),
    Mutation(
        "search",
        "agents/pimc.py",
        "float(outcome.winner == me)",
        "float(outcome.winner != me)",
        (PIMC,),
        "rollouts score a loss as a win",
    ),
    Mutation(
        "search",
        "agents/pimc.py",
        "(self.depth == 0 or steps < self.depth)",
        "(self.depth == 0 or steps <= self.depth)",
        (PIMC,),
        "depth: one decision too many before the estimate (off-by-one)",
    ),
    # -- statistics ----------------------------------------------------------------------------------
    Mutation(
        "stats",
        "sim/stats.py",
        "z = NormalDist().inv_cdf(0.5 + confidence / 2)",
        "z = NormalDist().inv_cdf(confidence)",
        (STATS,),
        "Wilson: a one-sided z for a two-sided interval",
    ),
    Mutation(
        "stats",
        "sim/stats.py",
        "centre = (rate + z2n / 2) / (1 + z2n)",
        "centre = rate",
        (STATS,),
        "Wilson: centred on the raw rate",
    ),
    Mutation(
        "stats",
        "sim/stats.py",
        "return min(1.0, 2 * NormalDist().cdf(-abs(z)))",
        "return min(1.0, NormalDist().cdf(-abs(z)))",
        (STATS, *COMPARE),
        "z-test: a one-sided p-value",
    ),
    Mutation(
        "stats",
        "sim/stats.py",
        "far = _tail_sum(log_pmf, edge + 1, games + 1, 1)",
        "far = _tail_sum(log_pmf, edge, games + 1, 1)",
        (STATS,),
        "binomial test: the far tail counts one outcome too many",
    ),
    Mutation(
        "stats",
        "sim/stats.py",
        "if p_values[index] > alpha / (count - rank):",
        "if p_values[index] > alpha / count:",
        (STATS,),
        "Holm reduced to Bonferroni",
    ),
    Mutation(
        "stats",
        "sim/stats.py",
        "running = max(running, min(1.0, (count - rank) * p_values[index]))",
        "running = min(1.0, (count - rank) * p_values[index])",
        (STATS,),
        "Holm-adjusted p-values not monotone",
    ),
    Mutation(
        "stats",
        "sim/stats.py",
        "z = NormalDist().inv_cdf(1 - alpha / (2 * tests))",
        "z = NormalDist().inv_cdf(1 - alpha / 2)",
        (STATS, *COMPARE),
        "detectable difference ignores the number of tests",
    ),
    Mutation(
        "stats",
        "sim/stats.py",
        "low = diff - math.sqrt((rate_b - low_b) ** 2 + (high_a - rate_a) ** 2)",
        "low = diff - math.sqrt((rate_b - low_b) ** 2 + (rate_a - low_a) ** 2)",
        (STATS, *COMPARE),
        "Newcombe: the lower bound takes a's lower arm",
    ),
    Mutation(
        "stats",
        "sim/compare.py",
        "have = min(counts.get((cell, seat), [0, 0])[1]",
        "have = max(counts.get((cell, seat), [0, 0])[1]",
        COMPARE,
        "top-up counts the fuller seat, not the lower",
    ),
    Mutation(
        "stats",
        "sim/compare.py",
        '"diff": wins_b / played_b - wins_a / played_a',
        '"diff": wins_a / played_a - wins_b / played_b',
        COMPARE,
        "entrant difference with its sign flipped",
    ),
    Mutation(
        "stats",
        "sim/compare.py",
        "tally[0] += count.first_named_wins",
        "tally[0] += count.p1_wins",
        COMPARE,
        "cell counts ignore the seat: P1's wins credited to the first-named entrant",
    ),
    Mutation(
        "stats",
        "sim/compare.py",
        "return 100 * max(detectable_difference(",
        "return 100 * min(detectable_difference(",
        COMPARE,
        "the resolution read from the best-played cell",
    ),
    # -- store ---------------------------------------------------------------------------------------
    Mutation(
        "store",
        "store/games_db.py",
        "_COLUMNS)} FROM games WHERE game = ? AND variant = ? AND agents = ? ",
        "_COLUMNS)} FROM games WHERE game = ? AND variant = ? AND (agents = ? OR 1 = 1) ",
        (DB,),
        "GamesDB.games(): the agents filter dropped",
    ),
    Mutation(
        "store",
        "store/games_db.py",
        '"SUM(winner NOT IN (0, 1)) FROM games WHERE game = ? AND variant = ? AND agents',
        '"SUM(winner NOT IN (0, 1)) FROM games WHERE game = ? AND (variant = ? OR 1 = 1) AND agents',
        (DB,),
        "GamesDB.counts(): the variant filter dropped",
    ),
    Mutation(
        "store",
        "store/games_db.py",
        "tally[1 + (item.winner if item.winner in (0, 1) else 2)] += 1",
        "tally[1 + (item.winner if item.winner in (0, 1) else 1)] += 1",
        (DB,),
        "counts_of(): a draw counted as a P2 win",
    ),
    Mutation(
        "store",
        "store/games_db.py",
        "SELECT MAX(COALESCE((SELECT MAX(game_index) + 1 FROM games",
        "SELECT MAX(COALESCE((SELECT MAX(game_index) FROM games",
        (DB,),
        "next_index reuses the last stored game's index (off-by-one)",
    ),
    Mutation(
        "store",
        "store/games_db.py",
        "key=lambda item: (-item[1], item[0])",
        "key=lambda item: (item[1], item[0])",
        (DB,),
        "agents(): fewest games first",
    ),
    Mutation(
        "store",
        "store/games_db.py",
        'query + " ORDER BY created DESC, id DESC"',
        'query + " ORDER BY created, id"',
        (DB,),
        "comparisons(): oldest first, so the newest is not the one read",
    ),
    Mutation(
        "store",
        "store/games_db.py",
        "return self.p1_wins if self.seat == 0 else self.p2_wins",
        "return self.p1_wins if self.seat == 1 else self.p2_wins",
        (DB,),
        "first_named_wins reads the wrong seat",
    ),
    Mutation(
        "store",
        "store/games_db.py",
        "FROM runs WHERE experiment = ? AND finished = 0 ORDER BY",
        "FROM runs WHERE experiment = ? ORDER BY",
        (DB,),
        "open_run() resumes a finished run",
    ),
    Mutation(
        "store", "store/fingerprint.py", "|{agents}|{engine}", "|{engine}", (FP,), "the fingerprint ignores the agents"
    ),
    Mutation(
        "store",
        "store/fingerprint.py",
        '_SUFFIXES = (".py", ".json", ".toml")',
        '_SUFFIXES = (".py", ".toml")',
        (FP,),
        "card data (.json) edits keep the fingerprint",
    ),
    Mutation(
        "store",
        "store/fingerprint.py",
        "if kernel or not file.is_relative_to(compiled)]",
        "if True]",
        (FP,),
        "compiled engines change the reference engine's fingerprint",
    ),
    # -- web security --------------------------------------------------------------------------------
    Mutation(
        "web",
        "web/manager.py",
        'raise Rejected(403, "wrong token for this game")',
        "return None",
        (WEB, HOLES),
        "a wrong token is taken for a spectator instead of a 403",
    ),
    Mutation(
        "web",
        "web/manager.py",
        "observation = state.observation(player)",
        "observation = state.open_observation()",
        (WEB, LEAK),
        "a seat's view shows both hands",
    ),
    Mutation(
        "web",
        "web/manager.py",
        'raise Rejected(409, f"it is not {seat}\'s turn", [])',
        "pass",
        (WEB, HOLES),
        "the turn check dropped: a seat may act on the other's turn",
    ),
    Mutation(
        "web",
        "web/manager.py",
        "if version is not None and version != len(live.actions):",
        "if version is not None and version > len(live.actions):",
        (WEB, HOLES),
        "a stale (older) version is accepted",
    ),
    Mutation(
        "web",
        "web/manager.py",
        "shown = full or (actor is not None and actor == player)",
        "shown = full or actor is not None",
        (WEB, HOLES),
        "a running replay shows the other seat's action text",
    ),
    Mutation(
        "web",
        "web/manager.py",
        "views = [event.view(event.secret_to if full else player)",
        "views = [event.view(event.secret_to",
        (WEB, HOLES),
        "a running replay shows every event's secret",
    ),
    Mutation(
        "web",
        "web/manager.py",
        'viewer = "all" if live.over else seat',
        'viewer = "all" if live.over else None',
        (WEB, HOLES),
        "replay cache shared between viewers: a seat's replay served to spectators",
    ),
    Mutation(
        "web",
        "web/app.py",
        'TOKEN = r"^[A-Za-z0-9_-]*$"',
        'TOKEN = r"^.*$"',
        (WEB, HOLES),
        "the token pattern check dropped",
    ),
    Mutation(
        "web",
        "web/app.py",
        "if not live.over:",
        "if False:",
        (WEB, HOLES),
        "a rematch is started before the game is over",
    ),
    Mutation(
        "web",
        "web/app.py",
        "json.dumps(data, ensure_ascii=False, allow_nan=False)",
        "json.dumps(data, ensure_ascii=False, allow_nan=True)",
        (WEB, HOLES),
        "NaN and Infinity get past the door",
    ),
    Mutation(
        "web",
        "web/app.py",
        'if request.method == "POST" and length is None:',
        "if False:",
        (WEB, HOLES),
        "a POST without Content-Length is not refused (411)",
    ),
)


def _mutated(text: str, mutation: Mutation) -> str:
    """The file with the mutation applied; the original must lie on exactly one line."""
    lines = text.splitlines(keepends=True)
    hits = [i for i, line in enumerate(lines) if mutation.original in line]
    if len(hits) != 1:
        raise SystemExit(f"{mutation.file}: {mutation.original!r} is on {len(hits)} lines, not one")
    lines[hits[0]] = lines[hits[0]].replace(mutation.original, mutation.replacement)
    return "".join(lines)


def _pytest(copy: Path, tests: tuple[str, ...], timeout: float) -> tuple[str, float, str]:
    """('pass' | 'fail' | 'timeout', seconds, output tail) of the named tests in the copy."""
    env = dict(os.environ, PYTHONPATH=f"{copy / 'src'}:{copy}", PYTHONDONTWRITEBYTECODE="1")
    command = [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", *tests]
    start = time.perf_counter()
    try:
        done = subprocess.run(command, cwd=copy, env=env, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return "timeout", time.perf_counter() - start, ""
    seconds = time.perf_counter() - start
    return ("pass" if done.returncode == 0 else "fail"), seconds, (done.stdout + done.stderr)[-1500:]


def _copy_head(into: Path, extra: bool) -> None:
    """HEAD's tree, plus (with `extra`) the uncommitted test files of `EXTRA_TESTS` (tests only, never src/)."""
    archive = subprocess.run(["git", "archive", "HEAD"], cwd=ROOT, capture_output=True, check=True).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    for name in EXTRA_TESTS if extra else ():
        assert name.startswith("tests/"), name
        source = ROOT / name
        if source.exists():
            (into / name).write_bytes(source.read_bytes())
    env = dict(os.environ, PYTHONPATH=f"{into / 'src'}:{into}")
    where = subprocess.run([sys.executable, "-c", "import cardlab; print(cardlab.__file__)"], env=env, cwd=into,
                           capture_output=True, text=True, check=True).stdout.strip()  # fmt: skip
    print(f"cardlab imported from {where}")
    if not Path(where).resolve().is_relative_to(into.resolve()):
        raise SystemExit("the copy's cardlab is not the one imported")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", help="run the mutations whose file, text or description holds this substring")
    parser.add_argument("--timeout", type=float, default=300.0, help="seconds per pytest run (default 300)")
    parser.add_argument(
        "--head", action="store_true", help="HEAD's tests only, without EXTRA_TESTS: the kill rate before them"
    )
    args = parser.parse_args()
    chosen = [m for m in MUTATIONS if not args.only or any(args.only in s for s in (m.file, m.original, m.description))]
    if not chosen:
        raise SystemExit(f"no mutation matches {args.only!r}")
    rows: list[tuple[Mutation, str, float]] = []
    with tempfile.TemporaryDirectory(prefix="cardlab-mutation-") as tmp:
        copy = Path(tmp)
        _copy_head(copy, extra=not args.head)
        present = {m: tuple(t for t in m.tests if (copy / t.split("::")[0]).exists()) for m in chosen}
        for tests in dict.fromkeys(tests for tests in present.values() if tests):
            status, seconds, tail = _pytest(copy, tests, args.timeout)
            print(f"base {' '.join(dict.fromkeys(t.split('::')[0] for t in tests))}: {status} ({seconds:.0f} s)")
            if status != "pass":
                raise SystemExit(f"the unmutated tests do not pass:\n{tail}")
        for number, mutation in enumerate(chosen, 1):
            if not present[mutation]:  # no named file in this tree: nothing checks the behaviour
                print(f"[{number}/{len(chosen)}] {'no test file':16}        {mutation.file}: {mutation.description}")
                rows.append((mutation, "no test file", 0.0))
                continue
            path = copy / "src" / "cardlab" / mutation.file
            original = path.read_text(encoding="utf-8")
            path.write_text(_mutated(original, mutation), encoding="utf-8")
            try:
                status, seconds, _ = _pytest(copy, present[mutation], args.timeout)
            finally:
                path.write_text(original, encoding="utf-8")
            verdict = {"fail": "killed", "timeout": "killed (timeout)", "pass": "SURVIVED"}[status]
            print(f"[{number}/{len(chosen)}] {verdict:16} {seconds:5.0f} s  {mutation.file}: {mutation.description}")
            rows.append((mutation, verdict, seconds))
    killed = sum(verdict == "killed" for _, verdict, _ in rows)
    timeouts = sum(verdict == "killed (timeout)" for _, verdict, _ in rows)
    rate = (killed + timeouts) / len(rows)
    summary = f"{killed + timeouts}/{len(rows)} killed ({rate:.0%}): {killed} by a failing test, {timeouts} by timeout"
    name = "mutation" + ("-head" if args.head else "") + ("-only" if args.only else "")
    _write(rows, summary, RESULTS / f"{name}.md", args)
    print(summary)


def _write(rows: list[tuple[Mutation, str, float]], summary: str, out: Path, args: argparse.Namespace) -> None:
    """The table of `benchmarks/results/mutation.md`: one row per mutation."""
    head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True).stdout
    tests = "" if args.head else " plus `EXTRA_TESTS`"
    command = " ".join(["python benchmarks/mutation_run.py", *sys.argv[1:]])
    lines = [
        "# Mutation run (issue #37, item 2)",
        "",
        f"{datetime.datetime.now(datetime.UTC):%Y-%m-%d %H:%M} UTC, HEAD {head.strip()}{tests}; `{command}`.",
        "",
        f"**{summary}.**",
        "",
        "| area | file | mutation | test file | killed? | s |",
        "|---|---|---|---|---|---|",
    ]
    for m, verdict, seconds in rows:
        change = f"`{m.original.strip()}` → `{m.replacement.strip()}`".replace("|", "\\|")
        tests = ", ".join(f"`{t}`" for t in dict.fromkeys(t.split("::")[0] for t in m.tests))
        lines.append(f"| {m.area} | `{m.file}` | {m.description}: {change} | {tests} | {verdict} | {seconds:.0f} |")
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"wrote {out.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
