"""Fixtures for the telecom tests: fresh worlds on the built-in data, and a call helper."""

from __future__ import annotations

import pytest

import tau_env


def call(world, side, tool, /, **arguments):
    """A tool call's result text; fails the test on an error result."""
    result = world.call_tool(side, tool, arguments)
    assert not result.error, result.content
    return result.content


def run(world, side, function, /, **arguments):
    """Run a registered env function (setup helper or assertion)."""
    return world.run_env_function(side, function, arguments)


def state_hash(world):
    """Both sides' reference hashes."""
    return world.agent_db.reference_hash(), world.user_db.reference_hash()


@pytest.fixture
def builtin():
    return tau_env.load_domain("telecom")


@pytest.fixture
def world(builtin):
    """A built-in world whose phone belongs to Maria Gonzalez (C2001, line L2001)."""
    world = builtin.new_world(seed=0)
    run(world, "user", "set_user_info", name="Maria Gonzalez", phone_number="555-210-3001")
    return world


@pytest.fixture
def official(data_dir):
    return tau_env.load_domain("telecom", data_dir)


@pytest.fixture
def official_world(official):
    """An official world whose phone belongs to John Smith (C1001, line L1002)."""
    world = official.new_world(seed=0)
    run(world, "user", "set_user_info", name="John Smith", phone_number="555-123-2002")
    return world
