"""Telecom task generation: issues, harmless settings, intents, personas, the built-in task set.

Importing this package imports nothing else; `generate` writes ``data/builtin_tasks.json`` and
``data/builtin_split_tasks.json`` (the repository's ``.ci/rewrite-builtin-data``).
"""
