"""The ``tau-env`` command line."""
