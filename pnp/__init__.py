"""pnp: print-and-play asset generator."""

__version__ = "0.1.0"   # the one place: pyproject.toml, `pnp --version` and the build cache read it
