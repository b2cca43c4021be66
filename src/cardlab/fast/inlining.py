"""Inline the kernels' `inline="always"` helpers without numba's two defensive copies of each callee.

The kernels inline their per-step helpers at numba IR level because the games play markedly faster so (the
speed notes of a game's `fast/cpu.py`; one batch kernel measured here played ~1.0 M random games per
CPU-second inlined, ~0.65 M not). numba 0.62 inlines a helper by running the helper's untyped pipeline afresh
at every call site and then deep-copying that fresh IR twice before splicing it in: once to have a copy to
mutate, once to return an unmutated original, which its only caller (the `InlineInlinables` pass) discards.
Neither copy protects anything, since nobody else holds a fresh IR; the copies were half of a cold compile of
one game's kernel under cProfile; skipping them cuts a cold compile of the kernels with the largest inlined
helpers by about a quarter, of the others by little (BENCHMARKS.md, `compile`). numba already dropped a third,
redundant copy (numba/numba#8989, PR #8990); a numba-cuda pull request skips the remaining two for a fresh IR
(NVIDIA/numba-cuda#689). Until numba does the same, `install` makes `InlineWorker.inline_function` splice the
fresh IR itself.

The patch applies to the numba version it was read against only (pyproject pins it): any other version, or
``CARDLAB_NUMBA_AS_IS=1`` in the environment, compiles exactly as numba does. Only the owner of the IR spliced
in changes, not the IR: the same source compiles to the same LLVM IR either way (tests/fast/test_inlining.py),
and the kernels' differential tests play the same games.
"""

from __future__ import annotations

import copy
import os
from types import SimpleNamespace
from typing import Any

PATCHED_FOR = "0.62.1"
"""The numba release whose `InlineWorker.inline_ir` was read: it copies only through the module's `copy`."""

_NO_COPY = SimpleNamespace(deepcopy=lambda value, memo=None: value, copy=copy.copy)


def install() -> bool:
    """Make numba splice a freshly built callee IR without copying it; whether the patch is in place."""
    if os.environ.get("CARDLAB_NUMBA_AS_IS", "") not in ("", "0"):
        return False
    try:
        import numba
        from numba.core import inline_closurecall
    except ImportError:
        return False
    worker = inline_closurecall.InlineWorker
    if getattr(worker.inline_function, "_cardlab_no_copy", False):
        return True
    if numba.__version__ != PATCHED_FOR:
        return False

    def inline_function(self: Any, caller_ir: Any, block: Any, i: int, function: Any, arg_typs: Any = None) -> Any:
        callee_ir = self.run_untyped_passes(function)  # built for this call site: nothing else holds it
        module = inline_closurecall.copy
        inline_closurecall.copy = _NO_COPY  # numba's global compiler lock is held: no other compile sees it
        try:
            return self.inline_ir(caller_ir, block, i, callee_ir, function.__code__.co_freevars, arg_typs=arg_typs)
        finally:
            inline_closurecall.copy = module

    inline_function._cardlab_no_copy = True  # type: ignore[attr-defined]
    inline_function.__wrapped__ = worker.inline_function  # type: ignore[attr-defined]  # numba's, for the tests
    worker.inline_function = inline_function
    return True
