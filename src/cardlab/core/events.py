"""Event logs where each event says who may see which part of it."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened. `public` is for everyone; `secret` only for `secret_to`."""

    kind: str
    public: Mapping[str, Any]
    secret: Mapping[str, Any] | None = None
    secret_to: int | None = None

    def view(self, player: int | None) -> dict[str, Any]:
        """The event as `player` may see it (None: a spectator)."""
        data = {"kind": self.kind, **self.public}
        if self.secret is not None and player is not None and player == self.secret_to:
            data.update(self.secret)
        return data


class EventLog:
    """An append-only list of events, read through a player's eyes."""

    __slots__ = ("_events",)

    def __init__(self, events: list[Event] | None = None) -> None:
        self._events = events if events is not None else []

    def append(self, event: Event) -> None:
        self._events.append(event)

    def copy(self) -> EventLog:
        return EventLog(list(self._events))

    def __len__(self) -> int:
        return len(self._events)

    def __iter__(self) -> Iterator[Event]:
        return iter(self._events)

    def for_player(self, player: int | None, start: int = 0) -> list[dict[str, Any]]:
        """Views of events from index `start` on, as `player` (None: spectator) sees them."""
        return [event.view(player) for event in self._events[start:]]
