"""Adapters to LLM training stacks, each behind its optional extra, each importing it lazily.

- `tau_env.integrations.trl` (extra ``trl``): TRL's GRPO ``environment_factory`` and
  ``rollout_func``, and datasets of task ids.
- `tau_env.integrations.openenv` (extra ``openenv``): an OpenEnv server and typed client.
- `tau_env.integrations.skyrl` (extra ``skyrl``): a SkyRL-gym ``BaseTextEnv``.

They only translate between those APIs and `tau_env.chat`; the episode's rules stay in the env.
"""
