"""One seeding scheme for everything: a master seed and labels give independent streams."""

from __future__ import annotations

import hashlib
import json
import random


def derive_seed(master: int, *labels: object) -> int:
    """A 63-bit seed from a master seed and labels, the same on every machine.

    Used so that game i of a tournament gets the same seed whatever the worker count.
    """
    text = json.dumps([master, *map(str, labels)]).encode()  # unambiguous: ("a", "b") != ("a/b",)
    return int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "big") >> 1


def make_rng(seed: int) -> random.Random:
    """The RNG type used across cardlab (Mersenne Twister; stable across platforms)."""
    return random.Random(seed)
