"""The banking knowledge domain: a retail bank whose agent finds its procedures in documents.

Description:
    The agent serves customers of Rho-Bank with 14 always-visible tools (identity look-ups,
    verification log, transfers) plus the search tools of a retrieval variant; most business
    actions are discoverable tools the knowledge base (698 documents in the official data)
    names, which the agent unlocks and then calls, or gives to the customer to run. The
    customer has tools of their own (apply for a card, refer a friend, call a given tool, ask
    for a human). Both sides work on one database; the reward is the reference's (database
    match, or action match, and one natural-language assertion).

Registered IDs:
    ``tau/banking_knowledge-v0``; retrieval variants through ``make_env(...,
    retrieval="bm25")`` (default ``bm25_grep``).

Version History:
    v0: first release. Official data from a folder (97 tasks); built-in bank Larkspur Bank
    (generated, with train/test splits by product family).
"""

from __future__ import annotations

from pathlib import Path

from tau_env.domain import DomainData, DomainDefinition, RetrievalSupport
from tau_env.domains.banking_knowledge.data_model import BankingDB
from tau_env.domains.banking_knowledge.direct_calls import AS_SENT
from tau_env.domains.banking_knowledge.loading import read_official
from tau_env.domains.banking_knowledge.retrieval.variants import (
    DEFAULT_VARIANT,
    VARIANTS,
    configure,
)
from tau_env.domains.banking_knowledge.tools import AGENT_ENV_FUNCTIONS, AGENT_TOOLS
from tau_env.domains.banking_knowledge.user_script import USER_VOCABULARY
from tau_env.domains.banking_knowledge.user_tools import USER_TOOLS
from tau_env.state import Toolbox

__all__ = ["DEFINITION", "TOOLBOX", "load_builtin", "load_official"]

TOOLBOX = Toolbox.of(
    AGENT_TOOLS, USER_TOOLS, agent_env_functions=AGENT_ENV_FUNCTIONS, arguments_as_sent=AS_SENT
)
"""The base tools; each retrieval variant puts its search tools before the agent's."""


def load_builtin() -> DomainData:
    """Larkspur Bank, the bank of our own written by ``generator/`` (shipped in ``data/``)."""
    from tau_env.domains.banking_knowledge.builtin import read_builtin

    return read_builtin()


def load_official(data_dir: Path) -> DomainData:
    """The reference's bank from ``<data_dir>/domains/banking_knowledge/``."""
    return read_official(data_dir)


DEFINITION = DomainDefinition(
    name="banking_knowledge",
    toolbox=TOOLBOX,
    agent_db=BankingDB,
    load_builtin=load_builtin,
    load_official=load_official,
    user_vocabulary=USER_VOCABULARY,
    shared_database=True,
    retrieval=RetrievalSupport(
        variants=tuple(VARIANTS), default=DEFAULT_VARIANT, configure=configure
    ),
)
