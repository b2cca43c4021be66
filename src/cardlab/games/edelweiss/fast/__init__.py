"""Edelweiss's compiled engines (extra `fast`): `cpu` (numba), `gpu` (JAX) and `search` (the compiled
information-set search, built on `cpu`). They play the same games as the pure-Python reference engine,
which stays the readable source of truth; `tests/games/edelweiss/fast/` proves them equal to it."""
