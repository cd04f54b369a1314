"""Gymnasium ids for the single-agent view, one per domain (registered by `import tau_env`).

``tau_env/<Domain>-v<N>`` plays the agent against the scripted user (deterministic);
``tau_env/<Domain>-LLMUser-v<N>`` against an LLM user (``llm=`` required; marked
nondeterministic); ``tau_env/<Domain>Featurized-v<N>`` the featurized view (telecom, airline,
retail: Box observation, Discrete templates, ``info["action_mask"]``). ``N`` is the domain's
registered version. Ids exist for every domain of the benchmark; making one whose domain is
not installed raises a clear `UnregisteredEnv`.

Usage::

    import gymnasium
    import tau_env  # registers the ids (or: gymnasium.make("tau_env:tau_env/Mock-v0"))

    env = gymnasium.make("tau_env/Mock-v0")
    env = gymnasium.make("tau_env/Mock-v0", user=my_user_factory, modes=[NoUser])
    env = gymnasium.make("tau_env/Telecom-LLMUser-v0", llm=ModelConfig("gpt-4.1"))
    env = gymnasium.make("tau_env/TelecomFeaturized-v0", split="test", style="paraphrase")
    envs = gymnasium.make_vec("tau_env/TelecomFeaturized-v0", num_envs=4)  # sync or async
"""

from __future__ import annotations

import gymnasium

from tau_env.registry import registry

__all__ = [
    "ENTRY_POINT",
    "FEATURIZED_DOMAINS",
    "FEATURIZED_ENTRY_POINT",
    "GYM_DOMAINS",
    "featurized_gym_id",
    "gym_id",
    "register_gym_envs",
]

ENTRY_POINT = "tau_env.wrappers.single_agent:make_single_agent_env"
FEATURIZED_ENTRY_POINT = "tau_env.wrappers.rl.views:make_featurized_env"

FEATURIZED_DOMAINS = ("telecom", "airline", "retail")
"""Domains with a featurized view (``tau_env/<Domain>Featurized-v<N>``)."""

GYM_DOMAINS: dict[str, str] = {
    "mock": "Mock",
    "airline": "Airline",
    "retail": "Retail",
    "telecom": "Telecom",
    "banking_knowledge": "BankingKnowledge",
}
"""Domain name -> the name used in gymnasium ids."""


def _version(domain: str) -> int:
    versions = [spec.version for spec in registry.values() if spec.domain == domain]
    return max(versions, default=0)


def gym_id(domain: str, *, llm_user: bool = False) -> str:
    """The gymnasium id of a domain's single-agent view."""
    title = GYM_DOMAINS.get(domain, domain.title())
    return f"tau_env/{title}{'-LLMUser' if llm_user else ''}-v{_version(domain)}"


def featurized_gym_id(domain: str) -> str:
    """The gymnasium id of a domain's featurized view (Box features, Discrete templates)."""
    return f"tau_env/{GYM_DOMAINS.get(domain, domain.title())}Featurized-v{_version(domain)}"


def register_gym_envs() -> list[str]:
    """Register every id (idempotent); returns the ids."""
    ids = []
    for domain in FEATURIZED_DOMAINS:
        env_id = featurized_gym_id(domain)
        ids.append(env_id)
        if env_id not in gymnasium.registry:
            gymnasium.register(
                id=env_id, entry_point=FEATURIZED_ENTRY_POINT, kwargs={"domain": domain}
            )
    for domain in GYM_DOMAINS:
        for llm_user in (False, True):
            env_id = gym_id(domain, llm_user=llm_user)
            ids.append(env_id)
            if env_id in gymnasium.registry:
                continue
            gymnasium.register(
                id=env_id,
                entry_point=ENTRY_POINT,
                kwargs={"domain": domain, "user": "llm" if llm_user else "scripted"},
                nondeterministic=llm_user,
            )
    return ids
