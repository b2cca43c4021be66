"""What an object lets code reach: the leak tests walk it to prove an InfoSet holds no hidden card."""

from __future__ import annotations

import gc


def reachable(root: object, limit: int) -> set[int]:
    """ids of every object reachable from `root` through the garbage collector's view (classes aside),
    stopping after `limit` objects."""
    seen: set[int] = set()
    stack = [root]
    while stack and len(seen) < limit:
        obj = stack.pop()
        if id(obj) in seen or isinstance(obj, type):
            continue
        seen.add(id(obj))
        stack.extend(gc.get_referents(obj))
    return seen
