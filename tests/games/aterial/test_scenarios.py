"""Every Aterial conformance scenario under scenarios/ (worked examples A20.1-A20.6 and per-rule cases).

Each file names the rule ids it checks under `rules`; every expectation was worked out by hand
from shared/rules/aterial.md.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from cardlab.cli import main
from cardlab.core.scenario import read_scenario, run_scenario_file
from cardlab.games import REGISTRY

SCENARIOS = sorted((Path(__file__).parent / "scenarios").glob("*.json"))
RULE_ID = re.compile(r"^(A\d+(\.\d+)?|R\d+)$")


def test_worked_examples_are_all_present() -> None:
    """A20.1-A20.6 each have at least one scenario (A20.2 all three outcomes)."""
    names = {path.stem for path in SCENARIOS}
    for example in ("a20_1", "a20_2", "a20_3", "a20_4", "a20_5", "a20_6"):
        assert any(name.startswith(example + "_") for name in names), example
    assert {"a20_2_side_attack_no_block", "a20_2_side_attack_blocked", "a20_2_front_attack_on_sister"} <= names
    assert len(SCENARIOS) >= 35


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda path: path.stem)
def test_scenario_names_its_rules(path: Path) -> None:
    data = read_scenario(path, REGISTRY)
    assert data["position"]["game"] == "aterial"
    assert data["description"]
    assert data["rules"] and all(RULE_ID.match(rule) for rule in data["rules"]), data["rules"]
    assert data["expect"], "a scenario must expect something"


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
    path = next(p for p in SCENARIOS if p.stem == "a20_6_deck_out_on_draw")
    assert main(["scenario", "run", "--print", str(path)]) == 0
    out = capsys.readouterr().out
    final = json.loads(out[out.index("{") : out.rindex("}") + 1])
    assert out.endswith("}\n1 passed, 0 failed\n")
    assert final["game"] == "aterial"
    assert (final["winner"], final["reason"], final["window"]) == ("P1", "deck_out", "over")


def test_failing_expectation_is_reported(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = json.loads(next(p for p in SCENARIOS if p.stem == "a20_4_pierce_excess").read_text())
    data["expect"]["players"]["P2"]["lp"] = 20
    path = tmp_path / "wrong.json"
    path.write_text(json.dumps(data))
    assert main(["scenario", "run", str(path)]) == 1
    out = capsys.readouterr().out
    assert "FAIL" in out and out.endswith("0 passed, 1 failed\n")


def test_illegal_action_names_its_index(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = json.loads(next(p for p in SCENARIOS if p.stem == "a20_2_side_attack_no_block").read_text())
    data["actions"] = ["ATTACK F0", "TARGET P2:F2"]
    path = tmp_path / "illegal.json"
    path.write_text(json.dumps(data))
    assert main(["scenario", "run", str(path)]) == 1
    out = capsys.readouterr().out
    assert "actions[1]: 'TARGET P2:F2' is illegal here; legal actions: [TARGET P2:F0, TARGET P2:F1]" in out


def test_bad_position_field_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = json.loads(next(p for p in SCENARIOS if p.stem == "a20_5_leader_move_retires").read_text())
    data["position"]["players"]["P1"]["field"]["F0"]["card"] = "S99"
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    assert main(["scenario", "run", str(path)]) == 1
    out = capsys.readouterr().out
    assert "position.players.P1.field.F0.card" in out and "S99" in out
