"""Aterial's compiled engine (extra `fast`): card data compiled to integer tables (`tables`), and the
numba kernel that interprets them (`cpu`), proven equal to the reference by tests/games/aterial/fast/."""
