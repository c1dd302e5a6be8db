"""The browser tables: static ES modules, CSS and pages served by ``starlanes serve``."""
