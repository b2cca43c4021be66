"""Game-agnostic pieces of the compiled engines and searches (extra `fast`); each game's own kernels
live in its package (`cardlab.games.<game>.fast`). Nothing here names a game."""

from cardlab.fast.inlining import install as _install_inlining

_install_inlining()  # before any kernel compiles: see cardlab.fast.inlining
