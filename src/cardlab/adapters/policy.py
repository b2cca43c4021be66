"""The OpenSpiel policy file format: what `cardlab.envs.openspiel.save_policy` writes and the
`openspiel:policy=FILE` agent reads (docs/openspiel.md). Reading a file needs no OpenSpiel."""

from __future__ import annotations

import hashlib

POLICY_FORMAT = "cardlab-openspiel-policy/1"
"""The `format` field of a policy file."""


def infostate_key(text: str) -> str:
    """The file's key for an information state string: 64 bits of its hash (the strings are long)."""
    return hashlib.blake2b(text.encode(), digest_size=8).hexdigest()
