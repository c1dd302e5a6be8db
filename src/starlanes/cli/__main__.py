"""``python -m starlanes.cli``: the same as the ``starlanes`` command."""

from starlanes.cli import main

if __name__ == "__main__":
    main()
