"""Standard interfaces for learning agents (issue #18): PettingZoo (`cardlab.envs.pettingzoo`) and
Gymnasium (`cardlab.envs.gymnasium`), for every registered game, on its leak-proof observation
tensor (`Game.encoding()`) and fixed action space. The `rl` extra installs the libraries; the core
never imports them.
"""
