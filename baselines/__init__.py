"""Agents: scripted oracles, and (in their own modules) LLM, random and trained agents."""
