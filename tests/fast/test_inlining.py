"""`cardlab.fast.inlining`: numba inlines `inline="always"` helpers without copying their fresh IR, and the
code it compiles is the code numba compiles on its own."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest

numba = pytest.importorskip("numba")
np = pytest.importorskip("numpy")

from numba.core import inline_closurecall, ir_utils  # noqa: E402

from cardlab.fast import inlining  # noqa: E402


def _program() -> Any:
    """Nested inlined helpers, a loop and a branch: what the kernels' step functions look like, in small."""

    @numba.njit(inline="always")
    def leaf(a: Any, i: int) -> int:
        return a[i] * 3 + 1

    @numba.njit(inline="always")
    def middle(a: Any, i: int) -> int:
        total = 0
        for j in range(i):
            total += leaf(a, j) if j % 2 else -leaf(a, j)
        return total

    @numba.njit
    def top(a: Any, n: int) -> int:
        total = 0
        for i in range(n):
            total += middle(a, i) + leaf(a, i)
        return total

    return top


def _compiled(inline_function: Callable[..., Any]) -> tuple[int, str]:
    """The program's result and its LLVM IR, compiled with `inline_function` doing numba's inlining."""
    installed = inline_closurecall.InlineWorker.inline_function
    inline_closurecall.InlineWorker.inline_function = inline_function  # type: ignore[method-assign]
    try:
        top = _program()
        result = top(np.arange(60, dtype=np.int64), 50)
        llvm = top.inspect_llvm(top.signatures[0])
    finally:
        inline_closurecall.InlineWorker.inline_function = installed  # type: ignore[method-assign]
    return result, _canonical(llvm)


def _canonical(llvm: str) -> str:
    """LLVM IR with numba's process-wide counters numbered afresh: block labels (`B231`), the versions of
    inlined variables (`middle_v7_total`) and of dispatchers in mangled names (`B3v14B`) count up with every
    compile, so two compiles of one program differ in them only."""
    llvm = re.sub(r"_v\d+_", "_v_", re.sub(r"B\d+v\d+B", "BvB", llvm))
    llvm = re.sub(r" {2,}", " ", llvm)  # the comments' padding follows the labels' lengths
    labels: dict[str, str] = {}
    return re.sub(r"\bB\d+\b", lambda m: labels.setdefault(m.group(0), f"B{len(labels)}"), llvm)


def test_the_patch_is_in_place_for_the_pinned_numba() -> None:
    assert numba.__version__ == inlining.PATCHED_FOR, "pyproject pins the numba the patch was read against"
    assert inlining.install()
    assert getattr(inline_closurecall.InlineWorker.inline_function, "_cardlab_no_copy", False)


def test_the_patched_inlining_compiles_what_numba_compiles() -> None:
    patched = inline_closurecall.InlineWorker.inline_function
    original = patched.__wrapped__
    ours = _compiled(patched)
    for _ in range(1000):  # numba's own, after others' compiles (in a suite's worker the labels run long)
        ir_utils._the_max_label.next()
    assert ours == _compiled(original)
    assert _compiled(patched)[0] == sum(
        sum((3 * j + 1) * (1 if j % 2 else -1) for j in range(i)) + 3 * i + 1 for i in range(50)
    )


def test_the_patch_does_not_copy_the_fresh_ir(monkeypatch: pytest.MonkeyPatch) -> None:
    """The point of the patch: numba's own inlining deep-copies every block of the callee twice."""
    copied: list[object] = []
    deepcopy = inline_closurecall.copy.deepcopy

    def counting(value: Any, memo: Any = None) -> Any:
        copied.append(value)
        return deepcopy(value, memo)

    monkeypatch.setattr(inline_closurecall.copy, "deepcopy", counting)
    _compiled(inline_closurecall.InlineWorker.inline_function)
    assert copied == []
    _compiled(inline_closurecall.InlineWorker.inline_function.__wrapped__)
    assert copied, "numba's inlining copies (else the patch would have nothing to save)"


def test_numba_as_is_when_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CARDLAB_NUMBA_AS_IS", "1")
    assert not inlining.install()
