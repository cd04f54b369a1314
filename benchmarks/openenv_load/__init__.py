"""``tau-env serve`` under load, by concept: the replayed plans, the client processes and
their CPU accounting, and the three modes of ``benchmarks/openenv_server.py``."""
