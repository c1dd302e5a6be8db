"""PettingZoo AEC environments of the starlanes games (see
:mod:`starlanes.interop.pettingzoo_env`)."""

from starlanes.interop.pettingzoo_env import StarlanesAEC, env, raw_env

__all__ = ["StarlanesAEC", "env", "raw_env"]
