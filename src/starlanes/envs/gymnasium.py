"""Gymnasium environments of the starlanes games (see
:mod:`starlanes.interop.gymnasium_env`); importing registers ``starlanes/<Game>-v0``."""

from starlanes.interop.gymnasium_env import ENV_IDS, StarlanesEnv, register

__all__ = ["ENV_IDS", "StarlanesEnv", "register"]
