"""One seeding scheme for everything: a master seed and labels give independent streams."""

from __future__ import annotations

import hashlib
import json
import random
from json.encoder import encode_basestring_ascii as _quote  # json.dumps's own string encoder


def derive_seed(master: int, *labels: object) -> int:
    """A 63-bit seed from a master seed and labels, the same on every machine.

    Used so that game i of a tournament gets the same seed whatever the worker count.
    """
    if type(master) is int:  # the JSON text of [master, *labels], built without json.dumps (it is hot)
        text = "[" + ", ".join((str(master), *map(_quote, map(str, labels)))) + "]"
    else:
        text = json.dumps([master, *map(str, labels)])  # unambiguous: ("a", "b") != ("a/b",)
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "big") >> 1


def make_rng(seed: int) -> random.Random:
    """The RNG type used across cardlab (Mersenne Twister; stable across platforms)."""
    return random.Random(seed)
