"""The trained example (issue #18) runs: a few seconds of training, then its rates from `cardlab simulate`."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("torch")
pytest.importorskip("gymnasium")

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "train_edelweiss.py"


def test_the_edelweiss_example_trains_saves_and_reports(tmp_path: Path) -> None:
    policy = tmp_path / "policy.npz"
    argv = [
        sys.executable,
        str(EXAMPLE),
        "--minutes",
        "0.05",
        "--batch",
        "16",
        "--eval-games",
        "40",
        "--out",
        str(policy),
    ]
    done = subprocess.run(argv, capture_output=True, text=True, timeout=300, check=True)
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert policy.is_file() and report["episodes"] >= 16
    assert [row["opponent"] for row in report["against"]] == ["heuristic", "random"]
    for row in report["against"]:
        low, high = row["ci95"]
        assert row["games"] == 40 and low <= row["win_rate"] <= high
