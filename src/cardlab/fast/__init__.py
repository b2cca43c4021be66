"""Compiled (numba) kernels that play the same games as the pure-Python reference engines, much faster.

Optional: install the `fast` extra. The reference engines stay the readable source of truth;
each kernel is proven equal to its reference by tests under `tests/fast/`.
"""
