"""The τ²-bench domains: one package per domain, same file names in each."""
