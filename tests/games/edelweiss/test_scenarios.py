"""Every conformance scenario under scenarios/ (W1-W6, their variants, per-rule cases: E14.6)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cardlab.cli import main
from cardlab.core.scenario import run_scenario_file
from cardlab.games import REGISTRY

SCENARIOS = sorted((Path(__file__).parent / "scenarios").glob("*.json"))


def test_worked_examples_are_all_present() -> None:
    names = {path.name.split("_")[0] for path in SCENARIOS}
    assert {"w1", "w2", "w3", "w3b", "w4", "w5", "w5b", "w5c", "w6", "w6b", "w6c"} <= names


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda path: path.stem)
def test_scenario_passes(path: Path) -> None:
    result = run_scenario_file(path, REGISTRY)
    assert result.passed, result.line()


def test_cli_runs_all_scenarios(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["scenario", "run", *map(str, SCENARIOS)]) == 0
    *lines, summary = capsys.readouterr().out.splitlines()
    assert len(lines) == len(SCENARIOS)
    assert all(line.endswith(": pass") for line in lines)
    assert summary == f"{len(SCENARIOS)} passed, 0 failed"


def test_cli_print_dumps_final_position(capsys: pytest.CaptureFixture[str]) -> None:
    path = next(p for p in SCENARIOS if p.name.startswith("w1_"))
    assert main(["scenario", "run", "--print", str(path)]) == 0
    out = capsys.readouterr().out
    final = json.loads(out[out.index("{") : out.rindex("}") + 1])
    assert out.endswith("}\n1 passed, 0 failed\n")
    assert final["winner"] == "P1" and final["win_reason"] == "attack"


def _write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def test_failing_expectation_is_reported_and_exit_code_nonzero(tmp_path: Path, capsys) -> None:
    data = json.loads(next(p for p in SCENARIOS if p.name.startswith("w1_")).read_text())
    data["expect"]["winner"] = "P2"
    path = _write(tmp_path, "wrong.json", json.dumps(data))
    assert main(["scenario", "run", str(path)]) == 1
    out = capsys.readouterr().out
    assert 'winner: expected "P2", got "P1"' in out


def test_illegal_action_names_action_index_and_legal_set(tmp_path: Path, capsys) -> None:
    data = json.loads(next(p for p in SCENARIOS if p.name.startswith("w1_")).read_text())
    data["actions"] = ["SUMMON S", "BLOCK"]
    path = _write(tmp_path, "illegal.json", json.dumps(data))
    assert main(["scenario", "run", str(path)]) == 1
    out = capsys.readouterr().out
    assert "actions[1]: 'BLOCK' is illegal here; legal actions: [ATTACK, END_TURN]" in out


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"position": {}, "actions": [1]}', "actions[0]: expected a string"),
        ('{"position": 1,\n "actions": [}', "invalid JSON at line 2"),
        ('{"actions": []}', "position: missing"),
        ('{"position": {"game": "edelweiss"}}', "position.config: missing"),
        ('{"position": {"game": "edelweiss"}, "expect": {"colour": 1}}', "expect.colour: unknown field"),
    ],
)
def test_malformed_file_gets_a_clear_error(tmp_path: Path, capsys, text: str, message: str) -> None:
    path = _write(tmp_path, "bad.json", text)
    assert main(["scenario", "run", str(path)]) == 1
    out = capsys.readouterr().out
    assert message in out
    assert "Traceback" not in out
