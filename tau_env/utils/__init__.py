"""Utilities shipped with the package (the env checker, environment-derived caches)."""
