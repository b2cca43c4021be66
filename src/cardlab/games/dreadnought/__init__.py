"""Dreadnought: the two-caster speed-phase TCG (rules: shared/rules/dreadnought.md)."""
