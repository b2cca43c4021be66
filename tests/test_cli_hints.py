"""Issue #54: every line naming an extra, a file or an agent shows it as typed, and the pip command it
gives fits how cardlab was installed."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from cardlab.cli import main
from cardlab.core import extras
from cardlab.core.extras import install_hint

WITHOUT_EXTRAS = """
import sys
sys.modules["numba"] = sys.modules["matplotlib"] = None  # `import numba` now fails as if it were not installed
from cardlab.cli import main
for argv in {commands}:
    print("$", *argv, flush=True)
    print("$", *argv, file=sys.stderr, flush=True)
    main(argv)
"""


def _without_fast_and_plots(tmp_path: Path, commands: list[list[str]]) -> dict[str, str]:
    """Each command's stdout and stderr, run in a fresh interpreter where numba and matplotlib cannot be
    imported, at 40 columns (a hint must stay on its line, whole)."""
    script = WITHOUT_EXTRAS.format(commands=commands)
    env = {"COLUMNS": "40", "PATH": "", "HOME": str(tmp_path), "PYTHONPATH": str(Path(__file__).parents[1])}
    done = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    outs = done.stdout.split("$ ")[1:]
    errs = done.stderr.split("$ ")[1:]
    return {out.split("\n", 1)[0]: out + err for out, err in zip(outs, errs, strict=True)}


def test_without_the_extras_every_hint_names_its_extra_as_typed(tmp_path: Path) -> None:
    """Rich read `[fast]` in `pip install -e '.[fast]'` as a style tag and printed `pip install -e '.'`."""
    db = str(tmp_path / "empty.sqlite")
    commands = [
        ["report", "edelweiss", "--db", db],  # the default table agent falls back, and says what it needs
        ["report", "aterial", "--db", db],
        ["tune", "edelweiss", "--rule", "first_draw", "--engine", "cpu"],
        ["sweep", "dreadnought", "--rule", "token_to", "--engine", "cpu"],
        ["simulate", "edelweiss", "--engine", "cpu", "--games", "2"],
        ["ladder", "edelweiss", "--agents", "random,heuristic", "--games", "1", "--workers", "1", "--out", "l[1]"],
    ]
    printed = _without_fast_and_plots(tmp_path, commands)
    fast, plots = install_hint("fast"), install_hint("plots")
    assert "'.[fast]'" in fast or "'cardlab[fast]'" in fast
    for command in ("report edelweiss", "report aterial", "tune edelweiss", "sweep dreadnought"):
        (out,) = [text for line, text in printed.items() if line.startswith(command)]
        (note,) = [line for line in out.splitlines() if line.startswith("note: ")]  # one line, unbroken
        assert note.startswith("note: this table is played by the heuristic agent"), out
        assert note.endswith(f"needs the fast extra: {fast}"), out
    for command in ("tune edelweiss", "sweep dreadnought", "simulate edelweiss"):
        (out,) = [text for line, text in printed.items() if line.startswith(command)]
        assert f"cardlab: error: the cpu engine needs the fast extra: {fast}\n" in out, out
    (ladder,) = [text for line, text in printed.items() if line.startswith("ladder")]
    assert f"no plot: it needs the plots extra ({plots})\n" in ladder
    assert "wrote l[1]/ladder.json in" in ladder  # a folder named with brackets, as typed


def test_a_folder_prints_as_typed(tmp_path: Path, capsys) -> None:
    """A path, like an agent spec or a label, is data: no `[tag]` in it is markup, no `:name:` an emoji."""
    out = tmp_path / "[bold]:cd:"
    argv = ["ladder", "edelweiss", "--agents", "random,heuristic", "--games", "1", "--workers", "1"]
    assert main([*argv, "--out", str(out)]) == 0
    assert f"wrote {out}/ladder.json" in capsys.readouterr().out


def test_play_names_its_save_file_as_typed(tmp_path: Path, capsys, monkeypatch) -> None:
    save = tmp_path / "[red]:cd:.json"
    monkeypatch.setattr("sys.stdin", io.StringIO(f"save {save}\nq\n"))
    assert main(["play", "edelweiss"]) == 0
    assert f"saved to {save}; continue later with: cardlab play edelweiss --load {save}" in capsys.readouterr().out
    assert save.exists()


@pytest.fixture
def installed_from_a_wheel(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(extras, "editable_install", lambda: False)


@pytest.mark.usefixtures("installed_from_a_wheel")
def test_installed_from_a_wheel_the_hints_name_the_package(tmp_path: Path, capsys, monkeypatch) -> None:
    """`pip install -e '.[plots]'` outside a checkout would install the current folder, not cardlab's extra."""
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    monkeypatch.setitem(sys.modules, "pyarrow", None)
    argv = ["ladder", "edelweiss", "--agents", "random,heuristic", "--games", "1", "--workers", "1"]
    assert main([*argv, "--out", str(tmp_path / "l")]) == 0
    assert "no plot: it needs the plots extra (pip install 'cardlab[plots]')" in capsys.readouterr().out
    (tmp_path / "x.parquet").write_bytes(b"")
    assert main(["import", "edelweiss", str(tmp_path / "x.parquet"), "--db", str(tmp_path / "lab.sqlite")]) == 2
    err = capsys.readouterr().err
    assert "parquet import needs the data extra: pip install 'cardlab[data]'" in err and "-e" not in err


class _Distribution:
    def __init__(self, direct_url: dict | None) -> None:
        self.direct_url = direct_url

    def read_text(self, name: str) -> str | None:
        assert name == "direct_url.json"
        return None if self.direct_url is None else json.dumps(self.direct_url)


@pytest.mark.parametrize(
    ("direct_url", "hint"),
    [
        ({"url": "file:///src/cardlab", "dir_info": {"editable": True}}, "pip install -e '.[fast]'"),
        ({"url": "file:///src/cardlab", "dir_info": {}}, "pip install 'cardlab[fast]'"),  # pip install .
        (None, "pip install 'cardlab[fast]'"),  # from an index: no direct_url.json
    ],
)
def test_the_hint_follows_the_install(monkeypatch: pytest.MonkeyPatch, direct_url: dict | None, hint: str) -> None:
    monkeypatch.setattr(extras, "distribution", lambda name: _Distribution(direct_url))
    extras.editable_install.cache_clear()
    try:
        assert install_hint("fast") == hint
        assert extras.needs_extra("backend=cpu", "fast") == f"backend=cpu needs the fast extra: {hint}"
    finally:
        extras.editable_install.cache_clear()


def test_run_from_its_source_folder_the_hint_is_the_checkouts(monkeypatch: pytest.MonkeyPatch) -> None:
    def not_installed(name: str) -> None:
        raise extras.PackageNotFoundError(name)

    monkeypatch.setattr(extras, "distribution", not_installed)
    extras.editable_install.cache_clear()
    try:
        assert install_hint("plots") == "pip install -e '.[plots]'"
    finally:
        extras.editable_install.cache_clear()
