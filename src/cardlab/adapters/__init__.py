"""Cardlab games seen through outside libraries' interfaces, below the agents (docs/architecture.md).

`common` holds what every such interface shares (a game over its fixed action space and observation tensor);
`openspiel` makes every game an OpenSpiel game (the `openspiel` extra), which the `openspiel:bot` agent
searches through; `policy` is the OpenSpiel policy file format, which `openspiel:policy=FILE` reads without
OpenSpiel. The research environments of `cardlab.envs`, which also play agents (opponents, bots), stand
above the agents and build on these.
"""
