"""`cardlab meta GAME`: the decks a card pool allows, the metagame they form, and the cards that break it (#52).

Search (docs/meta.md says why): MAP-Elites over the game's two declared traits (`cardlab.core.deckspace`), each
deck scored against the matrix's decks (the packaged entrants plus the best responses found) by the cheap search
agent, under common random numbers (game i of a pairing is dealt from the opponent's seed, whatever the deck); its
fitness is its score against the matrix's Nash mix. Double oracle: every few generations the best elite joins the
matrix if its score against the mix has a 95% interval above one half, the mix is solved again
(`cardlab.sim.equilibrium.nash_mix`), and the search goes on to its budget (no deck beating the mix beyond that
resolution in the last steps is reported as converged, not taken as proof that none exists). The matrix and the
best elites are then confirmed as a balance table of their deck files under the table agent (balance's statistics,
seeds and storage), the equilibrium taken from it with bootstrap intervals, and each card in the top decks is
measured by replacing it with its nearest legal card (CRN).

Every deck the search makes is checked by the game's own validator; its games are stored in the lab database as
counts per pairing and seat (a stopped run replays its decisions from them and resumes); every random choice comes
from `--seed`, so the results do not depend on the number of workers.
"""

from __future__ import annotations

import math
import random
import time
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np

from cardlab.core.deckspace import DeckSpace, Pick
from cardlab.core.errors import CardlabError
from cardlab.core.plugin import KernelRun, Matchups
from cardlab.core.rng import derive_seed
from cardlab.sim.balance import BalanceSetup, pairings, play_balance, stored_selection, summarize
from cardlab.sim.equilibrium import equilibrium, nash_mix
from cardlab.sim.meta_files import Effects, meta_summary, rate_against, write_meta_files
from cardlab.sim.tasks import GameTask, TaskResult, Track, no_progress
from cardlab.sim.tune import Budget
from cardlab.store.fingerprint import cardlab_version, fingerprint
from cardlab.store.games_db import GamesDB, StoredBatch

BINS = 8
"""Cells per trait in the map: 64 niches, enough to keep cheap and expensive, focused and mixed decks apart."""
BATCH = 16
"""Candidates per generation, played in one batch (what the workers share)."""
INITIAL = 32
"""Random legal decks before the search starts mutating elites."""
ORACLE_EVERY = 3
"""Generations between two double-oracle steps."""
MAX_MEMBERS = 8
"""Decks the double oracle adds to the matrix at most (the matrix is played in full by the table agent)."""
STALL = 2
"""Double-oracle steps in a row without a best response beyond resolution for a run to count as converged (the
search itself goes on to its budget: a best response not found yet may be found by more search)."""
TOP_ELITES = 3
"""Elites joining the finalists for their score against the packaged decks (where a dominant deck shows)."""
TOP_DECKS = 3
"""The finalists whose cards' effects are measured."""
RANDOM_DECKS = 400
"""Random legal decks that give each card's share by chance."""
Z95 = 1.959964
CALL_GAMES = 16384
"""Games per many-pairings kernel call at most (a second or so): each call's pairings are stored in one
transaction, so a Ctrl-C loses at most one call's games."""


def _score(wins: Sequence[int], games: Sequence[int], draws: int) -> float:
    """Seat-averaged win rate plus half the draw rate (as `cardlab.sim.equilibrium`)."""
    rates = [w / g for w, g in zip(wins, games, strict=True) if g]
    return min(1.0, sum(rates) / len(rates) + draws / (2 * sum(games))) if rates else 0.5


@dataclass
class Record:
    """A deck's games against one opponent: per seat (0: the deck in P1) its wins and games, and the draws."""

    wins: list[int] = field(default_factory=lambda: [0, 0])
    games: list[int] = field(default_factory=lambda: [0, 0])
    draws: int = 0

    @property
    def score(self) -> float:
        return _score(self.wins, self.games, self.draws)

    @property
    def total(self) -> int:
        return sum(self.games)


@dataclass(frozen=True)
class Entry:
    """A deck the search plays: a packaged entrant (`deck` its packaged id) or a generated deck (its file)."""

    id: str
    deck: str
    pick: Pick


class Player:
    """Plays and remembers pairings of one agent, `games` per seat, each dealt from the opponent's seeds (common
    random numbers: every deck meets an opponent on the same deals); stored pairings are read back, new ones
    stored as they finish."""

    def __init__(
        self,
        space: DeckSpace,
        db: GamesDB,
        variant: str,
        agent: str,
        engine: str,
        games: int,
        seed: int,
        cards: tuple[str, ...] | None,
        run: Callable[[Sequence[GameTask]], Iterable[TaskResult]],
    ) -> None:
        self.space, self.db, self.variant, self.agent, self.engine = space, db, variant, agent, engine
        self.games, self.seed, self.cards, self.run = games, seed, cards, run
        self.experiment = f"meta/{space.game}/{variant}/{agent}/seed={seed}/games={games}/engine={engine}"
        self.stamp = (cardlab_version(), fingerprint(space.game, agent, engine))
        stored = db.stored_batches(self.experiment)
        self.stored = {(cell, seat): batch for (cell, _, seat), batch in stored.items() if batch.count == games}
        self.records: dict[tuple[str, str], Record] = {}
        self.played = 0
        """New games played by this run (the rest came from the database)."""
        self.decks: dict[str, Any] = {}
        """The game's deck object of each entry played by the many-pairings kernel."""

    def record(self, a: str, b: str) -> Record:
        return self.records[(a, b)]

    def _config(self, first: Entry, second: Entry) -> dict[str, Any]:
        return self.space.lab_config((first.deck, second.deck), (first.pick.override, second.pick.override), self.cards)

    def _batch(self, a: Entry, b: Entry, seat: int, seed: int) -> StoredBatch:
        p1, p2 = (a, b) if seat == 0 else (b, a)
        return StoredBatch(
            self.space.game, self.variant, self.agent, self.experiment, f"{a.id}-{b.id}", seat, p1.id, p2.id, seed,
            0, 0, 0, 0, 0, {}, 0, 0, *self.stamp,
        )  # fmt: skip

    def play(self, pairs: Sequence[tuple[Entry, Entry]]) -> None:
        """Every pairing (deck, opponent) of `pairs` not yet known, both seats."""
        wanted: list[tuple[Entry, Entry, int]] = []
        for a, b in pairs:
            if (a.id, b.id) in self.records:
                continue
            self.records[(a.id, b.id)] = Record()
            for seat in (0, 1):
                batch = self.stored.get((f"{a.id}-{b.id}", seat))
                if batch is not None:
                    self._count(a.id, b.id, seat, batch)
                else:
                    wanted.append((a, b, seat))
        if self.engine == "reference":
            self._play_reference(wanted)
        else:
            self._play_kernel(wanted)

    def _count(self, a: str, b: str, seat: int, batch: StoredBatch) -> None:
        record = self.records[(a, b)]
        record.wins[seat] += batch.p1_wins if seat == 0 else batch.p2_wins
        record.games[seat] += batch.count
        record.draws += batch.draws

    def _play_kernel(self, wanted: Sequence[tuple[Entry, Entry, int]]) -> None:
        """Many pairings per kernel call where the game's kernels offer it (`run_pairings`), else one call each."""
        from cardlab.games import game_class

        many = getattr(game_class(self.space.game).kernels(), "run_pairings", None)
        if many is None or self.space.deck_of is None:
            self._play_each(wanted)
            return
        base = self.space.packaged[0]
        config = self.space.lab_config((base.deck, base.deck), (None, None), self.cards)  # the pool and rules
        step = max(1, CALL_GAMES // self.games)
        for start in range(0, len(wanted), step):
            chunk = wanted[start : start + step]
            seeds = [derive_seed(self.seed, "meta", self.engine, b.id) for _, b, _ in chunk]
            decks = [(self._deck(a), self._deck(b)) if seat == 0 else (self._deck(b), self._deck(a))
                     for a, b, seat in chunk]  # fmt: skip
            run = many(config, decks, (self.agent, self.agent), self.games, seeds)
            if run is None:  # agents the many-pairings entry does not play
                self._play_each(wanted[start:])
                return
            self._store_many(chunk, seeds, run)

    def _deck(self, entry: Entry) -> Any:
        deck = self.decks.get(entry.id)
        if deck is None:
            assert self.space.deck_of is not None
            deck = self.decks[entry.id] = self.space.deck_of(entry.deck, entry.pick)
        return deck

    def _store_many(self, chunk: Sequence[tuple[Entry, Entry, int]], seeds: Sequence[int], run: KernelRun) -> None:
        """The pairings of one many-pairings call (pairing-major, `self.games` each), stored in one transaction."""
        shape = (len(chunk), self.games)
        winner, reason = run.winner.reshape(shape), run.reason.reshape(shape)
        p1_wins, p2_wins = (winner == 0).sum(axis=1), (winner == 1).sum(axis=1)
        turns, decisions = run.turns.reshape(shape).sum(axis=1), run.decisions.reshape(shape).sum(axis=1)
        codes = np.unique(reason)
        by_code = {int(code): (reason == code).sum(axis=1) for code in codes}
        batches = []
        for k, ((a, b, seat), seed) in enumerate(zip(chunk, seeds, strict=True)):
            reasons = {run.reasons[code]: int(counts[k]) for code, counts in by_code.items() if counts[k]}
            batches.append(replace(
                self._batch(a, b, seat, seed), count=self.games, p1_wins=int(p1_wins[k]), p2_wins=int(p2_wins[k]),
                draws=self.games - int(p1_wins[k]) - int(p2_wins[k]), reasons=reasons, turns=int(turns[k]),
                decisions=int(decisions[k]),
            ))  # fmt: skip
        self.db.put_batches(batches)
        for (a, b, seat), batch in zip(chunk, batches, strict=True):
            self._keep(a.id, b.id, seat, batch)

    def _play_each(self, wanted: Sequence[tuple[Entry, Entry, int]]) -> None:
        from cardlab.sim.engines import kernel_run

        for a, b, seat in wanted:
            seed = derive_seed(self.seed, "meta", self.engine, b.id)
            first, second = (a, b) if seat == 0 else (b, a)
            run = kernel_run(self.space.game, self._config(first, second), (self.agent,) * 2, self.games, seed,
                             self.engine)  # fmt: skip
            p1_wins, p2_wins = int((run.winner == 0).sum()), int((run.winner == 1).sum())
            reasons = Counter(run.reasons[int(r)] for r in run.reason)
            batch = replace(
                self._batch(a, b, seat, seed), count=len(run), p1_wins=p1_wins, p2_wins=p2_wins,
                draws=len(run) - p1_wins - p2_wins, reasons=dict(reasons), turns=int(run.turns.sum()),
                decisions=int(run.decisions.sum()),
            )  # fmt: skip
            self._store(a.id, b.id, seat, batch)

    def _play_reference(self, wanted: Sequence[tuple[Entry, Entry, int]]) -> None:
        tasks = []
        for a, b, seat in wanted:
            first, second = (a, b) if seat == 0 else (b, a)
            config = self._config(first, second)
            for index in range(self.games):
                seed = derive_seed(self.seed, "meta", b.id, index)  # both seats and every deck: the same deals
                labels: dict[str, Any] = {"a": a.id, "b": b.id, "seat": seat}
                tasks.append(GameTask(self.space.game, config, (self.agent, self.agent), seed, labels,
                                      keep_actions=False))  # fmt: skip
        entries = {entry.id: entry for a, b, _ in wanted for entry in (a, b)}
        batches: dict[tuple[str, str, int], StoredBatch] = {}
        for result in self.run(tasks):
            got = result.task.labels
            a, b, seat = entries[str(got["a"])], entries[str(got["b"])], int(got["seat"])
            key = (a.id, b.id, seat)
            batch = batches.get(key) or self._batch(a, b, seat, derive_seed(self.seed, "meta", b.id))
            record = result.record
            reasons = dict(batch.reasons)
            reasons[record.reason] = reasons.get(record.reason, 0) + 1
            batch = replace(
                batch, count=batch.count + 1, p1_wins=batch.p1_wins + (record.winner == 0),
                p2_wins=batch.p2_wins + (record.winner == 1), draws=batch.draws + (record.winner is None),
                reasons=reasons, turns=batch.turns + record.turns, decisions=batch.decisions + record.decisions,
            )  # fmt: skip
            batches[key] = batch
            if batch.count == self.games:
                self._store(a.id, b.id, seat, batch)

    def _store(self, a: str, b: str, seat: int, batch: StoredBatch) -> None:
        self.db.put_batches([batch])
        self._keep(a, b, seat, batch)

    def _keep(self, a: str, b: str, seat: int, batch: StoredBatch) -> None:
        self.stored[(batch.cell, seat)] = batch
        self.played += batch.count
        self._count(a, b, seat, batch)


# ---- legal decks: drawn and mutated, each checked by the game's validator ----


class Builder:
    """Random legal decks and legal mutations of a deck space; every deck checked by the game's own validator."""

    def __init__(self, space: DeckSpace) -> None:
        self.space = space
        order = {card.id: i for i, card in enumerate(space.cards)}
        self.allowed = {o: sorted(space.allowed(o), key=order.__getitem__) for o in space.overrides}
        self.name = {card.id: card.name for card in space.cards}
        self.limit = {card.id: card.limit for card in space.cards}
        for override, cards in self.allowed.items():
            room: dict[str, int] = {}
            for card in cards:
                room[self.name[card]] = self.limit[card]
            if sum(room.values()) < space.deck_size:
                raise CardlabError(
                    f"the card pool cannot make a legal deck of {space.deck_size} cards with {override} "
                    f"({space.rule}): {len(cards)} cards allowed, {sum(room.values())} copies at most"
                )

    def _room(self, counts: Mapping[str, int], card: str) -> bool:
        name = self.name[card]
        return sum(n for other, n in counts.items() if self.name[other] == name) < self.limit[card]

    def _fill(self, counts: Counter[str], override: str, rng: random.Random, prefer: Sequence[str]) -> None:
        """Add copies until the deck is full: of `prefer` (the deck's own cards) where they have room, else any."""
        allowed = self.allowed[override]
        while sum(counts.values()) < self.space.deck_size:
            options = [card for card in prefer if self._room(counts, card)] if rng.random() < 0.5 else []
            options = options or [card for card in allowed if self._room(counts, card)]
            counts[rng.choice(options)] += 1

    def checked(self, pick: Pick) -> Pick:
        problems = self.space.problems(pick)
        if problems:
            rule, message = problems[0]
            raise CardlabError(f"the deck space of {self.space.game} made an illegal deck ({rule}: {message})")
        return pick

    def draw(self, rng: random.Random) -> Pick:
        """A random legal deck: a random override, a random set of distinct cards, their copies drawn at random."""
        override = rng.choice(self.space.overrides)
        allowed = list(self.allowed[override])
        rng.shuffle(allowed)
        least = -(-self.space.deck_size // max(self.limit.values()))
        wanted = rng.randint(least, max(least, min(len(allowed), self.space.deck_size)))
        chosen: list[str] = []
        for card in allowed:
            if len(chosen) >= wanted and self._capacity(chosen) >= self.space.deck_size:
                break
            chosen.append(card)
        counts: Counter[str] = Counter()
        while sum(counts.values()) < self.space.deck_size:
            options = [card for card in chosen if self._room(counts, card)]
            counts[rng.choice(options or [c for c in allowed if self._room(counts, c)])] += 1
        return self.checked(Pick.of(override, counts))

    def _capacity(self, cards: Sequence[str]) -> int:
        return sum({self.name[card]: self.limit[card] for card in cards}.values())

    def mutate(self, pick: Pick, rng: random.Random) -> Pick:
        """1 to 3 swaps of one copy for another legal card; now and then another override (cards it does not allow
        replaced). The deck stays legal by construction, and the validator confirms it."""
        counts: Counter[str] = Counter(pick.counts())
        override = pick.override
        if len(self.space.overrides) > 1 and rng.random() < 0.15:
            override = rng.choice([o for o in self.space.overrides if o != override])
            allowed = set(self.allowed[override])
            for card in [card for card in counts if card not in allowed]:
                del counts[card]
        for _ in range(rng.randint(1, 3)):
            if sum(counts.values()) >= self.space.deck_size:
                cards = sorted(counts)
                victim = rng.choices(cards, weights=[counts[c] for c in cards])[0]
                counts[victim] -= 1
                if not counts[victim]:
                    del counts[victim]
            self._fill(counts, override, rng, sorted(counts))
        self._fill(counts, override, rng, sorted(counts))
        return self.checked(Pick.of(override, counts))

    def without(self, pick: Pick, card: str, traits: Callable[[Pick], tuple[float, ...]]) -> Pick:
        """The deck with every copy of `card` replaced, one at a time, by the legal card (not `card`) that moves
        the deck's traits least: its nearest legal replacement."""
        counts: Counter[str] = Counter(pick.counts())
        copies = counts.pop(card)
        for _ in range(copies):
            best: tuple[float, int, str] | None = None
            for index, other in enumerate(self.allowed[pick.override]):
                if other == card or self.name[other] == self.name[card] or not self._room(counts, other):
                    continue
                trial = counts.copy()
                trial[other] += 1
                target = traits(Pick.of(pick.override, trial))
                here = traits(Pick.of(pick.override, counts + Counter({card: 1})))
                distance = sum((x - y) ** 2 for x, y in zip(target, here, strict=True))
                if best is None or (distance, index) < best[:2]:
                    best = (distance, index, other)
            if best is None:
                raise CardlabError(f"no legal replacement for {card} in a deck of {self.space.game}")
            counts[best[2]] += 1
        return self.checked(Pick.of(pick.override, counts))


# ---- the search ----


@dataclass
class MetaSetup:
    """What `cardlab meta` was asked: the pool, the agents and engines, the sizes, the seed, where files go."""

    game: str
    card_files: tuple[str, ...]
    search_agent: str
    search_engine: str
    agent: str
    engine: str
    games: int
    confirm_games: int
    budget: Budget
    seed: int
    out: Path


@dataclass
class SearchState:
    members: list[str]
    weights: Any
    grid: dict[tuple[int, int], str] = field(default_factory=dict)
    fitness: dict[str, float] = field(default_factory=dict)
    evaluated: int = 0
    games: int = 0
    oracle_steps: int = 0
    converged: bool = False
    bins: int = BINS


class Meta:
    """One `cardlab meta` run: the search, the confirmation table, the cards' effects (see the module's text)."""

    def __init__(
        self,
        setup: MetaSetup,
        space: DeckSpace,
        base: Matchups,
        db: GamesDB,
        run: Callable[[Sequence[GameTask]], Iterable[TaskResult]],
        note: Callable[[str], None] = lambda line: None,
    ) -> None:
        self.setup, self.space, self.base, self.db, self.note = setup, space, base, db, note
        self.builder = Builder(space)
        cards = tuple(str(Path(p).resolve()) for p in setup.card_files) if setup.card_files else None
        self.cards = cards
        variant = base.variant
        self.search = Player(space, db, variant, setup.search_agent, setup.search_engine, setup.games, setup.seed,
                             cards, run)  # fmt: skip
        self.entries: dict[str, Entry] = {p.id: Entry(p.id, p.deck, p.pick) for p in space.packaged}
        self.packaged = [p.id for p in space.packaged]
        self.pool = setup.out / "pool"
        self.rng = random.Random(derive_seed(setup.seed, "meta-search"))
        self.started = time.perf_counter()
        self.last_note = self.started

    # -- decks --

    def entry(self, pick: Pick) -> Entry:
        known = self.entries.get(pick.id)
        if known is not None:
            return known
        self.pool.mkdir(parents=True, exist_ok=True)
        path = self.pool / f"{pick.id}.toml"
        if not path.exists():
            path.write_text(self.space.deck_text(pick, pick.id, f"meta {pick.id}"), encoding="utf-8")
        entry = Entry(pick.id, str(path.resolve()), pick)
        self.entries[pick.id] = entry
        return entry

    def traits(self, pick: Pick) -> tuple[float, ...]:
        """The traits scaled to [0, 1] (what the map bins and the nearest replacement measures)."""
        return tuple((t.value(pick) - t.low) / ((t.high - t.low) or 1.0) for t in self.space.traits)

    def cell(self, pick: Pick) -> tuple[int, int]:
        i, j = (min(BINS - 1, max(0, int(v * BINS))) for v in self.traits(pick))
        return i, j

    # -- scores --

    def score(self, a: str, b: str) -> tuple[float, int]:
        """a's score against b and the games it rests on, from whichever side played the pairing."""
        record = self.search.records.get((a, b))
        if record is not None:
            return record.score, record.total
        record = self.search.record(b, a)
        return 1.0 - record.score, record.total

    def matrix(self, members: Sequence[str]) -> Any:
        payoff = np.zeros((len(members), len(members)))
        for i, a in enumerate(members):
            for j, b in enumerate(members[:i]):
                value = self.score(a, b)[0] - 0.5
                payoff[i, j], payoff[j, i] = value, -value
        return payoff

    def versus_mix(self, deck: str, state: SearchState) -> tuple[float, float]:
        """The deck's score against the mix and its standard error (the mix's cells taken as independent)."""
        mean = variance = 0.0
        for weight, member in zip(state.weights, state.members, strict=True):
            if weight <= 1e-9:
                continue
            if member == deck:
                mean += weight * 0.5
                continue
            score, games = self.score(deck, member)
            mean += weight * score
            variance += weight**2 * score * (1 - score) / max(games, 1)
        return mean, math.sqrt(variance)

    def versus_packaged(self, deck: str) -> float:
        scores = [self.score(deck, p)[0] for p in self.packaged if p != deck]
        return sum(scores) / len(scores) if scores else 0.5

    # -- the loop --

    def _spent(self, state: SearchState) -> bool:
        budget = self.setup.budget
        if budget.games is not None:
            return state.games >= budget.games
        if budget.seconds is not None:
            return time.perf_counter() - self.started >= budget.seconds
        return False

    def _progress(self, state: SearchState, force: bool = False) -> None:
        now = time.perf_counter()
        if not force and now - self.last_note < 10.0:
            return
        self.last_note = now
        elapsed = now - self.started
        rate = self.search.played / elapsed if elapsed else 0.0
        budget = self.setup.budget
        eta = ""
        if budget.games is not None and rate:
            eta = f", ETA {max(0.0, (budget.games - state.games) / rate):,.0f} s"
        elif budget.seconds is not None:
            eta = f", ETA {max(0.0, budget.seconds - elapsed):,.0f} s"
        self.note(
            f"search: {state.evaluated:,} decks scored, {len(state.grid)} niches filled, {state.games:,} games "
            f"({rate:,.0f} games/s), {len(state.members)} decks in the matrix{eta}"
        )

    def _play(self, decks: Sequence[str], opponents: Sequence[str], state: SearchState) -> None:
        pairs = [(self.entries[a], self.entries[b]) for a in decks for b in opponents if a != b]
        fresh = [(a, b) for a, b in pairs if (a.id, b.id) not in self.search.records]
        self.search.play(fresh)
        state.games += sum(self.search.record(a.id, b.id).total for a, b in fresh)

    def run_search(self) -> SearchState:
        packaged = self.packaged
        state = SearchState(list(packaged), None)
        for i, a in enumerate(packaged):
            self._play([a], packaged[:i], state)
        state.weights = nash_mix(self.matrix(packaged))[0]
        stalled = generation = 0
        while not self._spent(state):
            self._generation(state)
            generation += 1
            self._progress(state)
            if generation % ORACLE_EVERY == 0:
                stalled = 0 if self._oracle(state) else stalled + 1
        state.converged = stalled >= STALL
        self._progress(state, force=True)
        return state

    def _generation(self, state: SearchState) -> None:
        picks: list[Pick] = []
        seen = set(state.fitness)
        for _ in range(BATCH * 20):
            if len(picks) >= BATCH:
                break
            if state.evaluated + len(picks) < INITIAL or not state.grid:
                pick = self.builder.draw(self.rng)
            else:
                cells = sorted(state.grid)
                parent = self.entries[state.grid[cells[self.rng.randrange(len(cells))]]].pick
                pick = self.builder.mutate(parent, self.rng)
            if pick.id not in seen and pick.id not in self.packaged:
                seen.add(pick.id)
                picks.append(pick)
        decks = [self.entry(pick).id for pick in picks]
        self._play(decks, state.members, state)
        state.evaluated += len(decks)
        for deck in decks:
            state.fitness[deck] = self.versus_mix(deck, state)[0]
            self._place(deck, state)

    def _place(self, deck: str, state: SearchState) -> None:
        cell = self.cell(self.entries[deck].pick)
        held = state.grid.get(cell)
        if held is None or (state.fitness[deck], held) > (state.fitness[held], deck):
            state.grid[cell] = deck

    def _oracle(self, state: SearchState) -> bool:
        """One double-oracle step: the best elite joins the matrix if it beats the mix beyond resolution."""
        state.oracle_steps += 1
        if len(state.members) >= len(self.packaged) + MAX_MEMBERS:
            return False
        elites = sorted(set(state.grid.values()) - set(state.members))
        if not elites:
            return False
        best = max(elites, key=lambda deck: (state.fitness[deck], deck))
        score, error = self.versus_mix(best, state)
        if score - Z95 * error <= 0.5:
            return False
        state.members.append(best)
        state.weights = nash_mix(self.matrix(state.members))[0]
        self._play(sorted(set(state.grid.values()) - set(state.members)), [best], state)
        for deck in set(state.grid.values()):
            state.fitness[deck] = self.versus_mix(deck, state)[0]
        return True

    # -- what the search found --

    def finalists(self, state: SearchState) -> list[str]:
        """The matrix's decks, then the elites that score best against the packaged decks."""
        chosen = list(state.members)
        elites = sorted(set(state.grid.values()) - set(chosen), key=lambda d: (-self.versus_packaged(d), d))
        return chosen + elites[:TOP_ELITES]

    def random_shares(self) -> dict[str, float]:
        rng = random.Random(derive_seed(self.setup.seed, "meta-random-decks"))
        totals: Counter[str] = Counter()
        for _ in range(RANDOM_DECKS):
            totals.update(self.builder.draw(rng).counts())
        return {card.id: totals[card.id] / (RANDOM_DECKS * self.space.deck_size) for card in self.space.cards}


def card_effects(meta: Meta, summary: Mapping[str, Any], finalists: Sequence[str], ids: Mapping[str, str]) -> Effects:
    """Each card of the top decks: the decks' score against the packaged decks with it minus with its nearest
    legal replacement, under the search agent on the same deals (CRN), averaged over the top decks holding it;
    the interval treats the two scores as independent (CRN's positive correlation only narrows it)."""
    setup = meta.setup
    player = Player(meta.space, meta.db, meta.base.variant, setup.search_agent, setup.search_engine,
                    setup.confirm_games, setup.seed, meta.cards, meta.search.run)  # fmt: skip
    packaged = meta.packaged
    own = [deck for deck in finalists if deck not in packaged]
    ranked = sorted(own, key=lambda d: (-(rate_against(summary, ids[d], [ids[p] for p in packaged])["rate"] or 0.0), d))
    found = Effects(top=ranked[:TOP_DECKS], agent=setup.search_agent)
    diffs: dict[str, list[tuple[float, float]]] = {}
    swaps = [(meta.entries[deck], card) for deck in found.top for card, _ in meta.entries[deck].pick.cards]
    others = [meta.entry(meta.builder.without(entry.pick, card, meta.traits)) for entry, card in swaps]
    sides = {side.id: side for entry, _ in swaps for side in [entry]} | {other.id: other for other in others}
    player.play([(side, meta.entries[p]) for side in sides.values() for p in packaged])  # one batch for the workers
    for (entry, card), other in zip(swaps, others, strict=True):
        with_card = [player.record(entry.id, p) for p in packaged]
        without = [player.record(other.id, p) for p in packaged]
        a = sum(r.score for r in with_card) / len(packaged)
        b = sum(r.score for r in without) / len(packaged)
        n = sum(r.total for r in with_card)
        variance = (a * (1 - a) + b * (1 - b)) / max(n, 1)
        diffs.setdefault(card, []).append((a - b, variance))
        found.resolution_pp = 100 * Z95 * math.sqrt(0.5 / max(n, 1))
    for card, values in diffs.items():
        mean = sum(d for d, _ in values) / len(values)
        spread = Z95 * math.sqrt(sum(v for _, v in values)) / len(values)
        found.effects[card] = (100 * mean, 100 * (mean - spread), 100 * (mean + spread))
    found.played = player.played
    return found


def parse_budget(text: str | None) -> Budget:
    """`--budget N|Mm` (default 20000 games): games keep a run the same on any machine, minutes do not."""
    return Budget.parse(text or "20000")


def confirm_table(
    meta: Meta, finalists: Sequence[str], own: Callable[[Matchups, Sequence[str], Sequence[str]], Matchups]
) -> tuple[Matchups, dict[str, str]]:
    """The finalists as a balance table of their deck files (`--entrants`): the matchups and deck id -> entrant id."""
    decks = meta.setup.out / "decks"
    decks.mkdir(parents=True, exist_ok=True)
    texts, ids = [], {}
    names = [t.name for t in meta.space.traits]
    for number, deck in enumerate(finalists, 1):
        entry = meta.entries[deck]
        if deck in meta.packaged:
            texts.append(deck)
            ids[deck] = deck
            continue
        values = [t.value(entry.pick) for t in meta.space.traits]
        words = ", ".join(f"{n} {v:.2f}" for n, v in zip(names, values, strict=True))
        path = decks / f"{deck}.toml"
        path.write_text(meta.space.deck_text(entry.pick, deck, f"meta deck {number} ({words})"), encoding="utf-8")
        texts.append(f"{path}:{entry.pick.override}")
        ids[deck] = f"{deck}/{entry.pick.override}"
    matchups = own(meta.base, texts, list(meta.setup.card_files))
    return matchups, ids


def run_meta(
    meta: Meta,
    confirm_run: Callable[[Sequence[GameTask]], Iterable[TaskResult]],
    track: Track = no_progress,
) -> tuple[dict[str, Any], list[str]]:
    """The whole run: search, confirmation table (stored as a balance table), effects; meta.json's content and
    the files written in the output folder."""
    from cardlab.games import game_class

    lab = game_class(meta.space.game).lab()
    if lab is None or lab.own is None:
        raise CardlabError(f"{meta.space.game} has no table of a designer's own decks (`--entrants`)")
    own = lab.own
    state = meta.run_search()
    finalists = meta.finalists(state)
    matchups, ids = confirm_table(meta, finalists, own)
    setup = meta.setup
    meta.note(
        f"confirming {len(finalists)} decks under {setup.agent}: {setup.confirm_games} games per pairing and seat"
    )
    balance = BalanceSetup(matchups, setup.agent, setup.confirm_games, setup.seed)
    selection = stored_selection(meta.db, matchups, setup.agent)
    new_confirm = 0
    have: Counter[tuple[str, int]] = Counter()
    for count in selection.counts:
        have[(count.cell, count.seat)] += count.games
    wanted = [(f"{a}-{b}", seat) for a, b in pairings(matchups.entrants, False) for seat in (0, 1)]
    if any(have[key] < setup.confirm_games for key in wanted):
        new_confirm = play_balance(meta.db, balance, setup.engine, confirm_run, track)  # a rerun tops nothing up
        selection = stored_selection(meta.db, matchups, setup.agent)
    summary = summarize(selection.counts, matchups, setup.agent)
    section = equilibrium(summary, seed=derive_seed(setup.seed, "meta-equilibrium"))
    effects = card_effects(meta, summary, finalists, ids)
    result = meta_summary(meta, state, summary, section, finalists, ids, effects)
    result["timings"] = {
        "seconds": round(time.perf_counter() - meta.started, 1),
        "new_games": meta.search.played + new_confirm + effects.played,
    }
    return result, write_meta_files(result, state, meta, summary)


def start_meta(
    game: str,
    given: Mapping[str, Any],
    db: GamesDB,
    agents: tuple[tuple[str, str], tuple[str, str]],
    run: Callable[[Sequence[GameTask]], Iterable[TaskResult]],
    note: Callable[[str], None] = lambda line: None,
) -> Meta:
    """A run's setup from a command's options (`--cards`, `--games`, `--confirm-games`, `--budget`, `--seed`,
    `--out`), `agents` the (search agent, engine) and (table agent, engine): bad values fail here, named."""
    from cardlab.games import game_class
    from cardlab.sim.prepare import lab_base

    base = lab_base(game, {"cards": given.get("cards")})  # every problem of the card files, at once
    for option in ("games", "confirm_games"):
        if int(given.get(option) or 0) < 1:
            raise CardlabError(f"--{option.replace('_', '-')} must be at least 1")
    card_files = tuple(given.get("cards") or ())
    space = game_class(game).deck_space(card_files)
    if space is None:
        raise CardlabError(f"{game} declares no deck space to search (a `meta` module in its package)")
    (search_agent, search_engine), (agent, engine) = agents
    setup = MetaSetup(
        game, card_files, search_agent, search_engine, agent, engine, int(given["games"]),
        int(given["confirm_games"]), parse_budget(given.get("budget")), int(given.get("seed") or 0),
        Path(given.get("out") or f"meta-{game}"),
    )  # fmt: skip
    return Meta(setup, space, base, db, run, note)
