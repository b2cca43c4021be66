"""Game-agnostic pieces of the compiled engines and searches (extra `fast`); each game's own kernels
live in its package (`cardlab.games.<game>.fast`). Nothing here names a game."""
