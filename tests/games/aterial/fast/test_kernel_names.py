"""Aterial's kernel reads like its reference: each decision window's handler has its kernel counterpart
(issue #50 item 5).

The reference applies an action through `state._HANDLERS[window]` (`_on_mulligan`, `_on_move`, ...); the
kernel's `_do` has one branch per window calling the helper of the same name. A window added to the reference
without its kernel branch, or a kernel branch calling another helper, fails here. Read from the source:
nothing is compiled.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from cardlab.games.aterial import state

pytest.importorskip("numba")

from cardlab.games.aterial.fast import cpu


def kernel_handlers() -> dict[int, str]:
    """`_do`'s branches: window -> the helper its branch calls (`window in (A, B)` names both)."""
    tree = ast.parse(Path(cpu.__file__).read_text())
    function = next(node for node in tree.body if isinstance(node, ast.FunctionDef) and node.name == "_do")
    found = {}
    for node in ast.walk(function):
        if not (isinstance(node, ast.If) and isinstance(node.test, ast.Compare)):
            continue
        call = node.body[0]
        assert isinstance(call, ast.Expr) and isinstance(call.value, ast.Call), ast.unparse(call)
        assert isinstance(call.value.func, ast.Name)
        compared = node.test.comparators[0]
        names = compared.elts if isinstance(compared, ast.Tuple) else [compared]
        for name in names:
            assert isinstance(name, ast.Name)
            found[getattr(cpu, name.id)] = call.value.func.id
    return found


def test_every_reference_handler_has_its_kernel_helper() -> None:
    handlers = kernel_handlers()
    assert set(handlers) == set(state._HANDLERS), "the kernel's windows are not the reference's"
    for window, handler in state._HANDLERS.items():
        name = handler.__name__
        assert handlers[window] == name, f"window {state.WINDOWS[window]}: the kernel should call {name}"
        assert hasattr(getattr(cpu, name, None), "py_func"), f"{name} is not a numba function of the kernel"
