"""The kernel reads like the reference: every frame, decision and effect the reference engine names has its
kernel counterpart, and every rule constant is defined once (issue #50 item 5).

The reference interprets four tables: `frames.AUTO` (automatic frames), `decisions.OPTIONS` and
`decisions.APPLY` (a decision frame's legal actions and their effect) and `frames.EFFECTS` (D22.2). The kernel
(`fast/cpu.py`) runs the same entries from four dispatchers, one branch per entry: `KERNEL` below declares,
per table, the constant that names an entry (its key upper-cased after a prefix: `F_SETTLE`, `D_WIN`,
`EF_DAMAGE`) and the dispatcher whose branch for that constant calls the entry's helper, named as the
reference's function (`_f_settle`, `_o_win`, `_a_win`, `_e_damage`). A reference entry added without its
kernel counterpart, or a kernel branch the reference no longer has, fails here, before any lock-step test
could (those only see the entries a seeded game reaches). Read from the source: nothing is compiled.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import pytest

from cardlab.games.dreadnought import actions, decisions, frames

pytest.importorskip("numba")

from cardlab.games.dreadnought.fast import cpu, tables

KERNEL: dict[str, tuple[Mapping[str, Callable[..., Any]], str, str]] = {
    "frames.AUTO": (frames.AUTO, "F_", "_auto"),
    "decisions.OPTIONS": (decisions.OPTIONS, "D_", "legal_actions"),
    "decisions.APPLY": (decisions.APPLY, "D_", "_decide"),
    "frames.EFFECTS": (frames.EFFECTS, "EF_", "_do_effect"),
}
"""Per reference table: (the table, the prefix of the kernel constant naming an entry, the kernel dispatcher)."""

CPU = ast.parse(Path(cpu.__file__).read_text())


def branches(dispatcher: str) -> dict[str, str]:
    """A dispatcher's `if <name> == CONSTANT:` branches: constant -> the helper its branch calls first."""
    function = next(node for node in CPU.body if isinstance(node, ast.FunctionDef) and node.name == dispatcher)
    found = {}
    for node in ast.walk(function):
        if not (isinstance(node, ast.If) and isinstance(node.test, ast.Compare)):
            continue
        constant = node.test.comparators[0]
        call = next(sub for sub in ast.walk(node.body[0]) if isinstance(sub, ast.Call))
        if isinstance(node.test.ops[0], ast.Eq) and isinstance(constant, ast.Name) and isinstance(call.func, ast.Name):
            found[constant.id] = call.func.id
    return found


@pytest.mark.parametrize("table", list(KERNEL))
def test_every_reference_entry_has_its_kernel_constant_and_helper(table: str) -> None:
    entries, prefix, dispatcher = KERNEL[table]
    dispatch = branches(dispatcher)
    for key, function in entries.items():
        constant = prefix + key.upper()
        assert hasattr(cpu, constant), f"{table}[{key!r}] has no kernel constant {constant}"
        names = tables.EFFECT_NAMES if prefix == "EF_" else cpu.FRAMES
        assert names.index(key) == getattr(cpu, constant), f"{constant} does not number {key!r}"
        assert dispatch.get(constant) == function.__name__, (
            f"{table}[{key!r}]: the kernel's {dispatcher} should call {function.__name__} for {constant}, "
            f"not {dispatch.get(constant)}"
        )
        helper = getattr(cpu, function.__name__, None)
        assert hasattr(helper, "py_func"), f"{function.__name__} is not a numba function of the kernel"
    stale = set(dispatch) - {prefix + key.upper() for key in entries}
    assert not stale, f"{dispatcher} runs {sorted(stale)}, which {table} does not name"


def test_the_kernel_frames_are_the_reference_frames() -> None:
    """`cpu.FRAMES` numbers exactly the reference's frames: the automatic ones, then the decisions."""
    assert set(cpu.FRAMES[: cpu.FIRST_DECISION]) == set(frames.AUTO)
    assert set(cpu.FRAMES[cpu.FIRST_DECISION :]) == set(decisions.OPTIONS) == set(decisions.APPLY)
    assert len(set(cpu.FRAMES)) == len(cpu.FRAMES)


def assigned(module: Any) -> set[str]:
    """Names a module assigns at its top level."""
    tree = ast.parse(Path(module.__file__).read_text())
    names: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.Assign | ast.AnnAssign):
            target = node.targets if isinstance(node, ast.Assign) else [node.target]
            names |= {name.id for name in ast.walk(ast.Tuple(target)) if isinstance(name, ast.Name)}
    return names


def test_every_rule_constant_is_defined_once() -> None:
    """The kernel imports the reference's constants (numba freezes them as globals) rather than copy them."""
    reference = assigned(frames) | assigned(actions)
    for module in (cpu, tables):
        twice = assigned(module) & reference
        assert not twice, f"{module.__name__} defines {sorted(twice)} again"
    for name in ("EMPTY", "IDOL_AREA", "OPENING_HAND", "HAND_LIMIT", "MAX_ENGRAVES", "AREA_UNITS", "AREA_WEIGHT",
                 "ENCHANT_BP", "ACTION_TURN_CAP", "TURN_CAP", "ENGRAVE", "PHASES"):  # fmt: skip
        assert getattr(cpu, name) is getattr(frames, name)
