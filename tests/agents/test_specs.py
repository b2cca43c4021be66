"""Agent spec strings: parsing, canonical form, clear errors."""

from __future__ import annotations

import pytest

from cardlab.agents import AgentSpecError, make_agent, parse_spec


def test_parse_spec_converts_parameters_to_their_types() -> None:
    name, params = parse_spec("ismcts:iterations=400:time=0.05:c=1.2:rollout=heuristic")
    assert name == "ismcts"
    assert params == {"iterations": 400, "time": 0.05, "c": 1.2, "rollout": "heuristic"}


@pytest.mark.parametrize(
    ("spec", "canonical"),
    [
        ("random", "random"),
        ("heuristic", "heuristic"),
        ("ismcts", "ismcts"),
        ("ismcts:iterations=1000", "ismcts"),  # defaults are dropped
        ("ismcts:rollout=heuristic:iterations=400", "ismcts:iterations=400:rollout=heuristic"),
        ("ismcts:time=0.05:rollout=heuristic", "ismcts:time=0.05:rollout=heuristic"),
    ],
)
def test_agents_report_a_canonical_spec(spec: str, canonical: str) -> None:
    agent = make_agent(spec)
    assert agent.spec == canonical
    assert make_agent(agent.spec).spec == canonical  # the spec round-trips


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("alphazero", "unknown agent 'alphazero'"),
        ("random:depth=3", "bad parameter 'depth=3'"),
        ("ismcts:iterations=many", "iterations='many' is not a valid int"),
        ("ismcts:iterations", "bad parameter 'iterations'"),
        ("ismcts:c=-1", "c must not be negative"),
        ("ismcts:rollout=greedy", "rollout must be 'random', 'heuristic' or 'fast'"),
        ("ismcts:iterations=0", "give iterations >= 1 or time > 0"),
    ],
)
def test_bad_specs_get_clear_errors(spec: str, message: str) -> None:
    with pytest.raises(AgentSpecError) as info:
        make_agent(spec)
    assert message in str(info.value)
