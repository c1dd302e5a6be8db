"""Research environments: ``starlanes.envs.pettingzoo.env(game, ...)`` (PettingZoo AEC)
and ``starlanes.envs.gymnasium`` (Gymnasium single-learner env, registered ids
``starlanes/<Game>-v0``). Both need the ``rl`` extra; see docs/research.md."""
