"""What the scripted user needs to know about the mock domain: how requests name its inbox.

The mock scenarios are ordinary (the shared reading finds their facts); the customer's two
tools act on its notification inbox, which agents call "notifications", "alerts" or "inbox"
(``request_words.toml``).
"""

from __future__ import annotations

from tau_env.data_files import builtin_toml
from tau_env.tasks.user_vocabulary import RequestLexicon, UserVocabulary

__all__ = ["USER_VOCABULARY"]

USER_VOCABULARY = UserVocabulary(
    requests=RequestLexicon.from_toml(builtin_toml(__package__, "request_words.toml"))
)
"""The mock domain's `UserVocabulary`."""
