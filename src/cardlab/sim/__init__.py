"""Matches between agents, with records that replay exactly from their seed."""

from cardlab.sim.match import GameRecord, play_match

__all__ = ["GameRecord", "play_match"]
