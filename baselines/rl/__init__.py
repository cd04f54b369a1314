"""Reinforcement-learning baselines on the featurized view (`tau_env.wrappers.rl`).

- `tau_env.baselines.rl.evaluate`: play template policies on tasks and score them (pass^k);
  the random template agent. No torch needed.
- `tau_env.baselines.rl.curve`: the learning-curve figure (needs matplotlib).
- `tau_env.baselines.sb3_train`: MaskablePPO (sb3-contrib) on built-in telecom, with the
  command line ``python -m tau_env.baselines.sb3_train`` (needs the ``rl`` extra).
"""
