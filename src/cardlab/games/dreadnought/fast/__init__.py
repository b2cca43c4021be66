"""Dreadnought's compiled engines (extra `fast`): `tables` compiles a config, `cpu` is the numba kernel."""
