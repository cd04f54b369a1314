"""Test doubles shipped with the package (importable by tests, benchmarks and examples)."""
