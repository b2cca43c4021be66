"""Observation encodings for learning agents (issue #18): what one player may know, as a fixed-size tensor.

A game's encoding (`Game.encoding()`, its package's `encoding` module) turns the observation a seat
receives (`State.observation(player)`, which never shows a hidden card) into a float32 vector whose
layout is declared up front as named segments, so a researcher can read any entry back. Because the
tensor is computed from the observation alone, two states with the same information set give the same
tensor, and no tensor can hold what the observation does not. Actions are the game's fixed action
space (`Game.num_actions`, `State.legal_action_mask`); the information-state string is the canonical
JSON of the observation.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

Vector = npt.NDArray[np.float32]


@dataclass(frozen=True)
class Segment:
    """A named run of entries of the tensor and what they hold."""

    name: str
    size: int
    meaning: str


@dataclass
class Encoding:
    """A fixed layout of segments; `fill(observation, out)` writes one observation into a zeroed vector,
    segment by segment through `Writer`."""

    game: str
    segments: tuple[Segment, ...]
    fill: Callable[[Mapping[str, Any], Writer], None]
    offsets: dict[str, int] = field(init=False)

    def __post_init__(self) -> None:
        self.offsets, start = {}, 0
        for segment in self.segments:
            if segment.name in self.offsets:
                raise ValueError(f"segment {segment.name!r} is declared twice")
            self.offsets[segment.name] = start
            start += segment.size
        self.size = start

    @property
    def shape(self) -> tuple[int]:
        return (self.size,)

    def encode(self, observation: Mapping[str, Any]) -> Vector:
        """The tensor of one seat's observation."""
        out = np.zeros(self.size, dtype=np.float32)
        self.fill(observation, Writer(self, out))
        return out

    def table(self) -> list[dict[str, Any]]:
        """The layout as rows (segment, first index, size, meaning): the documentation of the tensor."""
        return [{"segment": s.name, "start": self.offsets[s.name], "size": s.size, "meaning": s.meaning}
                for s in self.segments]  # fmt: skip


class Writer:
    """Writes values into the segments of one vector; an index outside its segment is an error, not a
    silent write into the next one."""

    def __init__(self, encoding: Encoding, out: Vector) -> None:
        self._encoding, self._out = encoding, out
        self._sizes = {segment.name: segment.size for segment in encoding.segments}

    def _check(self, name: str, index: int) -> None:
        size = self._sizes[name]
        if not 0 <= index < size:
            raise IndexError(f"{self._encoding.game} encoding: {name}[{index}] is outside its {size} entries")

    def set(self, name: str, index: int, value: float = 1.0) -> None:
        self._check(name, index)
        self._out[self._encoding.offsets[name] + index] = value

    def add(self, name: str, index: int, value: float = 1.0) -> None:
        self._check(name, index)
        self._out[self._encoding.offsets[name] + index] += value

    def values(self, name: str, values: Sequence[float]) -> None:
        size = self._sizes[name]
        if len(values) != size:
            raise ValueError(f"{self._encoding.game} encoding: {name} takes {size} values, got {len(values)}")
        start = self._encoding.offsets[name]
        self._out[start : start + len(values)] = values

    def one_hot(self, name: str, choices: Sequence[Any], value: Any) -> None:
        """Entry `choices.index(value)` set (nothing when `value` is None)."""
        if value is not None:
            self.set(name, list(choices).index(value))


def information_state_string(observation: Mapping[str, Any]) -> str:
    """The canonical text of an observation: equal for every state of one information set."""
    return json.dumps(observation, sort_keys=True, separators=(",", ":"))
