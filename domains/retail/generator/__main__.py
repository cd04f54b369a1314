"""``python -m tau_env.domains.retail.generator ARGS``.

An alias of ``tau-env generate --domain retail ARGS``.
"""

from __future__ import annotations

from tau_env.domains.generator_options import generate_alias

if __name__ == "__main__":
    raise SystemExit(generate_alias("retail"))
