import dataclasses
import json

import pytest

import tau_env
from tau_env.domains.mock import TOOLBOX
from tau_env.domains.mock.data_model import MockDB, TaskRecord
from tau_env.errors import ToolDefectWarning, ToolError
from tau_env.state import Toolbox, ToolResult
from tau_env.tools import ToolSet, tool
from tau_env.tools.as_sent import ArgumentsAsSent, UnlistedTool
from tau_env.tools.nesting import MAX_ARGUMENT_DEPTH


@tool(kind="write")
def half_done(db: MockDB, user_id: str) -> str:
    """Change two records, then fail.

    Args:
        user_id: The user to change.
    """
    db.users.edit(user_id).name = "Changed"
    db.tasks.edit("task_1").status = "completed"
    raise ToolError("failed halfway")


@tool(kind="write")
def buggy(db: MockDB, user_id: str) -> str:
    """Change a record, then hit a bug.

    Args:
        user_id: The user to change.
    """
    db.users.edit(user_id).name = "Changed"
    raise RuntimeError("a bug")


@pytest.fixture
def world():
    return tau_env.load_domain("mock").new_world()


def _hashes(world):
    return world.agent_db.reference_hash(), world.user_db.reference_hash()


@pytest.mark.parametrize(
    ("name", "arguments", "message"),
    [
        ("delete_task", {"task_id": "task_1"}, "Error: Tool 'delete_task' not found."),
        ("create_task", {"user_id": "user_1"}, "'title': Field required"),
        ("create_task", {"user_id": 7, "title": "x"}, "'user_id': Input should be a valid string"),
        (
            "create_task",
            {"user_id": "user_1", "title": "x", "colour": 1},
            "'colour': unexpected argument",
        ),
        ("update_task_status", {"task_id": "task_1", "status": "archived"}, "'status'"),
        ("create_task", '{"user_id": "user_1", "title": ', "are not valid JSON"),
        ("create_task", "[1, 2]", "must be a JSON object"),
        ("create_task", {"user_id": "user_9", "title": "x"}, "Error: User user_9 not found"),
    ],
)
def test_call_tool__bad_calls_give_an_error_result_and_change_nothing(
    world, name, arguments, message
):
    before = _hashes(world)
    result = world.call_tool("agent", name, arguments)
    assert result.error
    assert result.content.startswith("Error: ")
    assert message in result.content
    assert _hashes(world) == before


def test_tool_failure__is_call_tools_error_result_or_none_and_changes_the_same(world):
    twin, before = world.fork(), _hashes(world)
    calls = [
        ("create_task", {"user_id": "user_9", "title": "x"}),  # refused by the tool
        ("create_task", {"user_id": "user_1"}),  # refused by validation
        ("create_task", {"user_id": "user_1", "title": "x"}),  # a write that succeeds
        ("update_task_status", {"task_id": "task_1", "status": "completed"}),
    ]
    for name, arguments in calls:
        result = twin.call_tool("agent", name, arguments)
        assert world.tool_failure("agent", name, arguments) == (result if result.error else None)
    assert _hashes(world) == _hashes(twin) != before
    assert not world.differences(twin)


def test_world_sync__commits_what_is_pending_without_a_sync_rule(world):
    assert world.toolbox.sync is None
    world.agent_db.users.edit("user_1").name = "Pending"
    world.sync()
    world.journal.rollback()  # nothing left to undo: the sync committed it
    assert world.agent_db.users["user_1"].name == "Pending"


def test_toolbox_of__makes_each_side_a_tool_set_and_leaves_the_rest_empty():
    toolbox = Toolbox.of([half_done])
    assert [spec.name for spec in toolbox.agent_tools] == ["half_done"]
    assert (toolbox.agent_tools.side, toolbox.user_tools.side) == ("agent", "user")
    assert len(toolbox.user_tools) == len(toolbox.agent_env_functions) == 0
    assert len(toolbox.user_env_functions) == 0
    assert (toolbox.sync, toolbox.sync_inputs, toolbox.arguments_as_sent) == (None, None, None)
    assert [spec.name for spec in TOOLBOX.user_tools] == [
        spec.name for spec in Toolbox.of((), [s.function for s in TOOLBOX.user_tools]).user_tools
    ]


def test_call_tool__a_write_that_fails_midway_leaves_no_partial_change(world):
    toolbox = Toolbox(
        ToolSet("agent", [*[s.function for s in TOOLBOX.agent_tools], half_done]),
        TOOLBOX.user_tools,
        TOOLBOX.agent_env_functions,
        TOOLBOX.user_env_functions,
    )
    world.toolbox = toolbox
    before = _hashes(world)
    result = world.call_tool("agent", "half_done", {"user_id": "user_1"})
    assert result == type(result)("Error: failed halfway", error=True)
    assert _hashes(world) == before
    assert world.agent_db.users["user_1"].name == "Ada Lovelace"


def _world_with(world, *tools):
    world.toolbox = Toolbox(
        ToolSet("agent", list(tools)),
        TOOLBOX.user_tools,
        TOOLBOX.agent_env_functions,
        TOOLBOX.user_env_functions,
    )
    return world


def test_call_tool__a_bug_surfaces_after_undoing_its_changes(world):
    # In the test suite a tool's defect is an error (pyproject's filterwarnings), so a bug
    # fails the test that meets it, after the world undid the tool's changes.
    world = _world_with(world, buggy)
    before = _hashes(world)
    with pytest.raises(ToolDefectWarning, match="'buggy' failed with RuntimeError: a bug"):
        world.call_tool("agent", "buggy", {"user_id": "user_1"})
    assert _hashes(world) == before


def _as_sent_world(world):
    """The mock world with a toolbox taking arguments as sent, `buggy` callable unlisted."""
    hidden = UnlistedTool(half_done, ("user_id",), frozenset({"user_id"}), mutates_state=True)
    as_sent = ArgumentsAsSent(
        owner=lambda side, name: "MockTools",
        unlisted=lambda db, side, name: hidden if (side, name) == ("agent", "hidden") else None,
    )
    world.toolbox = dataclasses.replace(TOOLBOX, arguments_as_sent=as_sent)
    return world


def test_call_tool__arguments_as_sent_reach_the_tool_unvalidated(world):
    world = _as_sent_world(world)
    before = _hashes(world)
    # A number where the signature says text: the tool's own answer, not a validation error.
    result = world.call_tool("agent", "create_task", {"user_id": 7, "title": "x"})
    assert result == type(result)("Error: User 7 not found", error=True)
    assert world.call_tool("agent", "create_task", {"user_id": "user_1"}).content == (
        "Error: MockTools.create_task() missing 1 required positional argument: 'title'"
    )
    assert _hashes(world) == before


def test_call_tool__a_bug_is_an_error_result_naming_it_outside_the_tests(world):
    # Outside the tests the warning is only shown: one defective call never ends an episode.
    world = _world_with(world, buggy)
    before = _hashes(world)
    with pytest.warns(ToolDefectWarning, match="'buggy' failed with RuntimeError: a bug"):
        result = world.call_tool("agent", "buggy", {"user_id": "user_1"})
    assert result == ToolResult(
        "Error: tool 'buggy' failed unexpectedly (RuntimeError: a bug)", error=True
    )
    assert _hashes(world) == before


def test_call_tool__an_unlisted_tool_answers_by_name_and_any_exception_undoes_it(world):
    world = _as_sent_world(world)
    before = _hashes(world)
    result = world.call_tool("agent", "hidden", {"user_id": "user_1"})
    assert result == type(result)("Error: failed halfway", error=True)
    assert _hashes(world) == before
    assert world.call_tool("user", "hidden", {"user_id": "user_1"}).content == (
        "Error: Tool 'hidden' not found."
    )
    assert world.tool_mutates_state("agent", "hidden")
    assert not world.tool_mutates_state("user", "hidden")
    assert world.tool_mutates_state("agent", "create_task")
    assert not world.tool_mutates_state("agent", "get_users")


def test_call_tool__arguments_as_sent_a_bug_is_an_error_result(world):
    world = _as_sent_world(world)
    world.toolbox = dataclasses.replace(world.toolbox, agent_tools=ToolSet("agent", [buggy]))
    before = _hashes(world)
    result = world.call_tool("agent", "buggy", {"user_id": "user_1"})
    assert result == type(result)("Error: a bug", error=True)  # the reference's get_response
    assert _hashes(world) == before


@tool(kind="write")
def overflowing(db: MockDB, user_id: str, hours: float) -> str:
    """Change a record, then compute with a number Python refuses to convert.

    Args:
        user_id: The user to change.
        hours: Hours to charge.
    """
    db.users.edit(user_id).name = "Changed"
    return f"{hours * 1.5}"


def test_call_tool__python_refusing_a_value_is_worded_as_the_reference_words_it(world):
    # The reference answers any exception with "Error: <message>" (spec 2.2): an integer too
    # large for a float gives Python's own message, and the change before it is undone.
    world = _world_with(world, overflowing)
    before = _hashes(world)
    result = world.call_tool("agent", "overflowing", {"user_id": "user_1", "hours": 10**400})
    assert result == ToolResult("Error: int too large to convert to float", error=True)
    assert _hashes(world) == before


def _nested(depth: int) -> dict:
    value: dict = {}
    for _ in range(depth - 1):
        value = {"a": value}
    return value


@pytest.mark.parametrize("form", ["dict", "json"])
def test_call_tool__arguments_nested_5000_deep_are_refused(world, form):
    arguments = {"user_id": _nested(5000), "title": "x"}
    sent = arguments if form == "dict" else '{"user_id": ' + "[" * 5000 + "]" * 5000 + "}"
    before = _hashes(world)
    result = world.call_tool("agent", "create_task", sent)
    assert result.error
    assert result.content.endswith(f"nested more than {MAX_ARGUMENT_DEPTH} levels deep")
    assert _hashes(world) == before


def test_call_tool__arguments_at_the_depth_limit_reach_validation(world):
    # 64 levels (the arguments object is one): validated as usual, not refused for depth.
    arguments = {"user_id": _nested(MAX_ARGUMENT_DEPTH - 1), "title": "x"}
    result = world.call_tool("agent", "create_task", arguments)
    assert result.content.endswith("'user_id': Input should be a valid string")


def test_call_tool__results_are_serialized_like_the_reference(world):
    result = world.call_tool("agent", "create_task", {"user_id": "user_1", "title": "T"})
    assert not result.error
    assert json.loads(result.content) == {
        "task_id": "task_4",
        "title": "T",
        "description": None,
        "status": "pending",
    }
    assert world.call_tool("agent", "transfer_to_human_agents", {"summary": "s"}).content == (
        "Transfer successful"
    )


def test_call_tool__each_side_reaches_only_its_own_tools(world):
    assert world.call_tool("user", "create_task", {"user_id": "user_1", "title": "T"}).content == (
        "Error: Tool 'create_task' not found."
    )
    assert world.call_tool("agent", "check_notifications", {}).error


def test_run_env_function__only_registered_functions_are_reachable(world):
    with pytest.raises(KeyError, match="no agent env function or tool named '__class__'"):
        world.run_env_function("agent", "__class__", {})
    with pytest.raises(KeyError):
        world.run_env_function("agent", "reference_hash", {})
    assert (
        world.run_env_function(
            "agent", "assert_task_status", {"task_id": "task_1", "expected_status": "pending"}
        )
        is True
    )


def _failing_sync(world) -> None:
    raise ToolError("Wrong scenario: no line for the phone number")


def test_call_tool__a_failing_sync_undoes_the_call(world):
    world.toolbox = Toolbox(
        TOOLBOX.agent_tools,
        TOOLBOX.user_tools,
        TOOLBOX.agent_env_functions,
        TOOLBOX.user_env_functions,
        sync=_failing_sync,
    )
    before = _hashes(world)
    result = world.call_tool("agent", "create_task", {"user_id": "user_1", "title": "T"})
    assert result.error and "Wrong scenario" in result.content
    assert _hashes(world) == before
    with pytest.raises(ToolError):
        world.run_env_function("user", "add_notification", {"notification_id": "n", "message": "m"})
    assert _hashes(world) == before


def test_evaluate__a_read_only_helper_gives_run_env_functions_value_and_errors(world):
    arguments = {"task_id": "task_1", "expected_status": "pending"}
    assert not world.changes_state("agent", "assert_task_status")
    assert world.changes_state("agent", "create_task") and world.changes_state("agent", "nope")
    before = _hashes(world)
    assert world.evaluate("agent", "assert_task_status", arguments) is True
    assert world.evaluate("agent", "assert_task_status", arguments) == world.run_env_function(
        "agent", "assert_task_status", arguments
    )
    with pytest.raises(KeyError, match="no agent env function or tool named '__class__'"):
        world.evaluate("agent", "__class__", {})
    with pytest.raises(ValueError, match="expected_status"):
        world.evaluate("agent", "assert_task_status", {"task_id": "task_1"})
    assert _hashes(world) == before and not world.journal.pending


@tool(kind="read")
def show_task(db: MockDB, task_id: str) -> TaskRecord:
    """Show one task.

    Args:
        task_id: The task to show.
    """
    return db.tasks.require(task_id, f"Task {task_id} not found")


def _with_show_task(world):
    world.toolbox = Toolbox(
        TOOLBOX.agent_tools.merged(ToolSet("agent", [show_task, half_done])),
        TOOLBOX.user_tools,
        TOOLBOX.agent_env_functions,
        TOOLBOX.user_env_functions,
    )
    return world


def test_call_tool__a_records_kept_text_follows_every_committed_change(world):
    world = _with_show_task(world)

    def status(w):
        return json.loads(w.call_tool("agent", "show_task", {"task_id": "task_1"}).content)[
            "status"
        ]

    assert status(world) == status(world) == "pending"  # the second read finds the kept text
    changed = world.call_tool(
        "agent", "update_task_status", {"task_id": "task_1", "status": "completed"}
    )
    assert json.loads(changed.content)["status"] == "completed"
    assert status(world) == "completed"
    assert world.call_tool("agent", "half_done", {"user_id": "user_1"}).error  # undone
    assert status(world) == "completed"
    fork = world.fork(seed=1)
    assert status(fork) == "completed"
    fork.call_tool("agent", "update_task_status", {"task_id": "task_1", "status": "pending"})
    assert (status(fork), status(world)) == ("pending", "completed")
    assert status(_with_show_task(tau_env.load_domain("mock").new_world())) == "pending"


def test_call_tool__arguments_as_sent_nested_5000_deep_are_refused(world):
    world = _as_sent_world(world)
    before = _hashes(world)
    result = world.call_tool("agent", "create_task", {"user_id": _nested(5000), "title": "x"})
    assert result.error
    assert result.content.endswith(f"nested more than {MAX_ARGUMENT_DEPTH} levels deep")
    assert _hashes(world) == before
