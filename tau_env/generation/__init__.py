"""Fresh, verified task sets of any size for airline, retail, telecom and banking_knowledge.

``tau-env generate --domain D --seed S --tasks N --out DIR`` (`tau_env.cli.generate`) writes a
set in the official folder layout, ``DIR/domains/D/``, that ``--data-dir DIR`` and
``make_env(D, data_dir=DIR)`` read like the reference's data. The pipeline
(`tau_env.generation.pipeline`) drives each domain's own generator (`Adapter`), removes
duplicates, measures each task's difficulty, keeps every family's share, verifies every task by
gold replay and writes the set atomically with its manifest (`tau_env.generation.manifest`).

Import from the modules: `tau_env.generation.request` (`checked_request`),
`tau_env.generation.pipeline` (`generate_task_set`), `tau_env.generation.manifest`.
This package's ``__init__`` imports nothing, so reading a manifest stays light.
"""
