"""Actions of games whose action space is built at run time (e.g. from a card set).

Each action is a shared value with a stable integer id (for RL encodings and legal-action
masks) and a text form; equality and hashing use the id alone, so actions survive pickling
across worker processes.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence


class IndexedAction(int):
    """An action that is its integer id, with a text: `str()` gives the text, `int()` the id.

    Being an int keeps comparisons and hashing at C speed on the hot path (legal-action checks).
    """

    text: str

    def __new__(cls, action_id: int, text: str) -> IndexedAction:
        action = super().__new__(cls, action_id)
        action.text = text
        return action

    @property
    def id(self) -> int:
        return int(self)

    def __str__(self) -> str:
        return self.text

    def __format__(self, spec: str) -> str:
        return format(self.text, spec)

    def __repr__(self) -> str:
        return f"<{self.text} #{int(self)}>"

    def __reduce__(self) -> tuple[type[IndexedAction], tuple[int, str]]:
        return (IndexedAction, (int(self), self.text))


class ActionSpace:
    """A fixed list of actions: id <-> text, each action object created once."""

    def __init__(self, texts: Sequence[str]) -> None:
        self.actions = tuple(IndexedAction(index, text) for index, text in enumerate(texts))
        self._by_text = {action.text: action for action in self.actions}
        if len(self._by_text) != len(self.actions):
            raise ValueError("action texts must be unique")

    def __len__(self) -> int:
        return len(self.actions)

    def __getitem__(self, action_id: int) -> IndexedAction:
        return self.actions[action_id]

    def __iter__(self) -> Iterator[IndexedAction]:
        return iter(self.actions)

    def parse(self, text: str) -> IndexedAction:
        """The action whose text is `text` (extra spaces forgiven); ValueError otherwise."""
        try:
            return self._by_text[" ".join(text.split())]
        except (KeyError, AttributeError):
            raise ValueError(f"unknown action {text!r}") from None
