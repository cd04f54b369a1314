"""The ``python -m`` entry points of the domain generators: aliases of ``tau-env generate``.

``python -m tau_env.domains.airline.generator --tasks 500 --out DIR`` is
``tau-env generate --domain airline --tasks 500 --out DIR``: the same options, checks and
output (a verified set in ``DIR/domains/airline/``). None of them writes into the installed
package; the shipped built-in data is rewritten by the repository's
``.ci/rewrite-builtin-data`` script.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

__all__ = ["generate_alias"]


def generate_alias(domain: str, argv: Sequence[str] | None = None) -> int:
    """Run ``tau-env generate --domain <domain> <argv>`` and return its exit code."""
    from tau_env.cli.main import main

    arguments = list(sys.argv[1:] if argv is None else argv)
    return main(["generate", "--domain", domain, *arguments])
