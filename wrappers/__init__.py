"""Users and modes: participants for the user side, and wrappers that change one thing each."""
