"""``python -m tau_env.domains.banking_knowledge.generator ARGS``.

An alias of ``tau-env generate --domain banking_knowledge ARGS``.
"""

from __future__ import annotations

from tau_env.domains.generator_options import generate_alias

if __name__ == "__main__":
    raise SystemExit(generate_alias("banking_knowledge"))
