"""Every Dreadnought conformance scenario under scenarios/ (the D23.4 worked example, one scenario per
effect of D22.2 and static of D22.3, and notable rules).

Each file names the rule ids it checks under `rules`; every expectation was worked out by hand
from shared/rules/dreadnought.md.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from cardlab.cli import main
from cardlab.core.scenario import read_scenario, run_scenario_file
from cardlab.games import REGISTRY
from cardlab.games.dreadnought.cards import EFFECT_PARAMS, STATIC_EFFECT_PARAMS

SCENARIOS = sorted((Path(__file__).parent / "scenarios").glob("*.json"))
RULE_ID = re.compile(r"^D\d+(\.\d+[a-z]?)?$")


def test_worked_example_both_branches_are_present():
    """D23.4: the dummy block and the caster block (with War Cry)."""
    names = {path.stem for path in SCENARIOS}
    assert {"d23_4_worked_example_dummy_block", "d23_4_worked_example_caster_block"} <= names
    assert len(SCENARIOS) >= 50


def test_every_effect_and_static_has_a_scenario():
    """D22.2, D22.3: each effect (enchant once per kind) and each static has a scenario named after it
    (`d22_2_<effect>_...`, `d22_3_<static>_...`) that lists the rule."""
    wanted = [f"d22_2_{name}_" for name in EFFECT_PARAMS if name != "enchant"]
    wanted += ["d22_2_enchant_boost_", "d22_2_enchant_weaken_"]
    wanted += [f"d22_3_{name}_" for name in STATIC_EFFECT_PARAMS]
    for prefix in wanted:
        found = [path for path in SCENARIOS if path.stem.startswith(prefix)]
        assert found, f"no scenario for {prefix[:-1]}"
        rule = "D22.2" if prefix.startswith("d22_2") else "D22.3"
        assert all(rule in read_scenario(path, REGISTRY)["rules"] for path in found), prefix


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda path: path.stem)
def test_scenario_names_its_rules(path: Path) -> None:
    data = read_scenario(path, REGISTRY)
    assert data["position"]["game"] == "dreadnought"
    assert data["description"]
    assert data["rules"] and all(RULE_ID.match(rule) for rule in data["rules"]), data["rules"]
    assert len(set(data["rules"])) == len(data["rules"]), "a rule is listed twice"
    assert data["expect"], "a scenario must expect something"
    prefix = path.stem.split("_")[:2]  # the file is named after its first rule, e.g. d10_8_...
    assert any(rule.lower().replace(".", "_").startswith("_".join(prefix)) for rule in data["rules"]), path.stem


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda path: path.stem)
def test_scenario_passes(path: Path) -> None:
    result = run_scenario_file(path, REGISTRY)
    assert result.passed, result.line()


def test_cli_runs_scenarios(capsys: pytest.CaptureFixture[str]) -> None:
    paths = [str(path) for path in SCENARIOS]
    assert main(["scenario", "run", *paths]) == 0
    *lines, summary = capsys.readouterr().out.splitlines()
    assert len(lines) == len(paths)
    assert all(line.endswith(": pass") for line in lines)
    assert summary == f"{len(paths)} passed, 0 failed"


def test_cli_print_dumps_final_position(capsys: pytest.CaptureFixture[str]) -> None:
    path = next(p for p in SCENARIOS if p.stem == "d20_3_library_out_last_hp_loses")
    assert main(["scenario", "run", "--print", str(path)]) == 0
    out = capsys.readouterr().out
    final = json.loads(out[out.index("{") : out.rindex("}") + 1])
    assert out.endswith("}\n1 passed, 0 failed\n")
    assert final["game"] == "dreadnought"
    assert (final["winner"], final["reason"], final["phase"]) == ("P2", "hp", "over")


def test_failing_expectation_is_reported(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = json.loads(next(p for p in SCENARIOS if p.stem == "d10_8_attack_bonus").read_text())
    data["expect"]["players"]["P2"]["BA1"]["hp"] = ["N01"] * 3
    path = tmp_path / "wrong.json"
    path.write_text(json.dumps(data))
    assert main(["scenario", "run", str(path)]) == 1
    out = capsys.readouterr().out
    assert "FAIL" in out and out.endswith("0 passed, 1 failed\n")


def test_illegal_action_names_its_index(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = json.loads(next(p for p in SCENARIOS if p.stem == "d10_8_attack_bonus").read_text())
    data["actions"] = ["ATTACKER BA1.U1", "ATTACKER BA2.U1"]
    path = tmp_path / "illegal.json"
    path.write_text(json.dumps(data))
    assert main(["scenario", "run", str(path)]) == 1
    out = capsys.readouterr().out
    assert "actions[1]: 'ATTACKER BA2.U1' is illegal here; legal actions: [ATTACK BA1, ATTACK BA2]" in out
