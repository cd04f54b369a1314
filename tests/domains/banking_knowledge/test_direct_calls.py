"""Issue 43, classes 1-3: banking calls as the reference answers them, in whole episodes.

One example of each class, played on the AEC env (scripted sides), its Gymnasium view and
through ``tau-env run`` (an LLM agent and an LLM user on the fake OpenAI server):

1. a discoverable tool called by its name: the agent's transfer runs without an unlock and
   without the call log; the customer's look-up not given yet is refused in its own words;
2. argument values as sent: ``annual_income="85000"`` is accepted, ``"lots"`` gets the tool's
   own error (error flag clear);
3. ``give_discoverable_user_tool(arguments="[1, 2]")``: the reference's returned error.

The expected texts were recorded from the reference (tau2-bench a2c0247) on task_001.
"""

from __future__ import annotations

import pytest

import tau_env
from tau_env.actions import CallTool, SendMessage, Stop
from tau_env.cli.main import main
from tau_env.episode_runner import run_episode
from tau_env.store import ResultStore
from tau_env.testing.fake_openai import FakeOpenAIServer, FakeReply
from tau_env.wrappers import SingleAgentEnv

TRANSFER = (
    "transfer_funds_between_bank_accounts_7291",
    {
        "source_account_id": "chk_lj82d4f1a9",
        "destination_account_id": "chk_538bfb9cba",
        "amount": 50,
    },
)
AGENT_CALLS = [
    TRANSFER,
    ("list_discoverable_agent_tools", {}),
    (
        "give_discoverable_user_tool",
        {"discoverable_tool_name": "get_card_last_4_digits", "arguments": "[1, 2]"},
    ),
]
USER_CALLS = [
    ("get_card_last_4_digits", {"credit_card_account_id": "cc_lj82d4f1a9_silver"}),
    (
        "apply_for_credit_card",
        {
            "card_type": "Gold Rewards Card",
            "customer_name": "Sarah Bosch",
            "annual_income": "85000",
        },
    ),
    (
        "apply_for_credit_card",
        {"card_type": "Gold Rewards Card", "customer_name": "Sarah Bosch", "annual_income": "lots"},
    ),
]
NOT_GIVEN = (
    "Error: Tool 'get_card_last_4_digits' has not been given to you by the agent. The agent "
    "must first use `give_discoverable_user_tool` to give this tool to you."
)
EXPECTED = [  # (tool, result, error flag), in call order: the customer's first
    ("get_card_last_4_digits", NOT_GIVEN, False),
    (
        "apply_for_credit_card",
        "Credit card application submitted:\nYour application has been successfully submitted. "
        "You will receive a decision within 5-7 business days via email.",
        False,
    ),
    ("apply_for_credit_card", "Error: Invalid annual_income. Must be a number.", False),
    (
        "transfer_funds_between_bank_accounts_7291",
        "Transfer completed successfully!\n  - Amount: $50.00\n"
        "  - From: chk_lj82d4f1a9 (new balance: $127400.00)\n"
        "  - To: chk_538bfb9cba (new balance: $1897.50)",
        False,
    ),
    (
        "list_discoverable_agent_tools",
        "Your called agent tools:\nNo records found in 'agent_discoverable_tools'.",
        False,
    ),
    ("give_discoverable_user_tool", "Error: Unexpected parameter: 1", False),
]
FINAL_HASH = "a152d19c426f96da01f4f6bd5e452fad95b45db3a50ae6096c8ff7d4305b4771"
"""The reference's database hash after these calls on task_001."""


def _tool_results(trajectory) -> list[tuple[str, str, bool]]:
    return [(m.name, m.content, m.error) for m in trajectory if m.role == "tool"]


class _Scripted:
    """Makes the calls, then speaks once (``done`` then a stop for the user)."""

    def __init__(self, calls, closing):
        self.actions = [CallTool(name=name, arguments=arguments) for name, arguments in calls]
        self.actions += closing

    def act(self, view, context):
        return self.actions.pop(0)


def test_aec_episode__each_class_answers_as_the_reference(data_dir):
    env = tau_env.make_env("banking_knowledge", data_dir=data_dir, max_errors=1)
    result = run_episode(
        env,
        lambda task: _Scripted(AGENT_CALLS, [SendMessage(content="All done.")]),
        lambda task: _Scripted(USER_CALLS, [SendMessage(content="Hi."), Stop(reason="done")]),
        task_id="task_001",
        seed=0,
    )
    assert _tool_results(result.trajectory) == EXPECTED
    # No call counted as an error (max_errors=1 would have ended the episode at the first).
    assert result.grade.termination.value == "user_stop"
    world = env.unwrapped.conversation.world
    assert world.agent_db.reference_hash() == FINAL_HASH
    incomes = [r.root["annual_income"] for r in world.agent_db.credit_card_applications.values()]
    assert 85000.0 in incomes and "85000" not in incomes  # converted by the tool itself


def test_gymnasium_view__the_agent_calls_by_name_as_on_the_aec_env(data_dir):
    aec = tau_env.make_env("banking_knowledge", data_dir=data_dir, max_errors=1)
    user = _Scripted(USER_CALLS, [SendMessage(content="Hi."), Stop(reason="done")])
    env = SingleAgentEnv(aec, user=lambda task: user)
    env.reset(seed=0, options={"task_id": "task_001"})
    for name, arguments in AGENT_CALLS:
        _, _, terminated, truncated, _ = env.step(CallTool(name=name, arguments=arguments))
        assert not (terminated or truncated)
    _, _, terminated, _, info = env.step(SendMessage(content="All done."))
    assert terminated and info["termination"] == "user_stop"
    assert _tool_results(aec.unwrapped.conversation.trajectory) == EXPECTED


def _script(request):
    """The agent makes AGENT_CALLS then says it is done; the customer makes USER_CALLS first."""
    messages = request.body["messages"]
    if "transfer_to_human_agents" in request.tool_names:
        made = sum(len(m.get("tool_calls") or []) for m in messages if m["role"] == "assistant")
        if made < len(AGENT_CALLS):
            return FakeReply.tool_call(*AGENT_CALLS[made])
        return FakeReply.text("All done.")
    # In the customer's view the agent speaks as "user" and the customer as "assistant".
    made = sum(len(m.get("tool_calls") or []) for m in messages if m["role"] == "assistant")
    if made < len(USER_CALLS):
        return FakeReply.tool_call(*USER_CALLS[made])
    spoken = [m for m in messages if m["role"] == "assistant" and m.get("content")]
    return FakeReply.text("Thanks! ###STOP###" if spoken else "Hi.")


@pytest.fixture
def _api_key(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-fake")  # the SDK wants one; the fake ignores it


@pytest.mark.usefixtures("_api_key")
def test_run_command__each_class_answers_as_the_reference(data_dir, tmp_path, capsys):
    store = str(tmp_path / "runs.sqlite")
    with FakeOpenAIServer(_script) as server:
        model = [server.model(), f"--agent-api-base={server.base_url}"]
        user = [server.model(), f"--user-api-base={server.base_url}"]
        argv = [
            "run", "--domain", "banking_knowledge", "--data-dir", str(data_dir),
            "--retrieval", "no_knowledge", "--tasks", "task_001", "--run", "r",
            "--store", store, "--no-progress", "--agent", "llm", "--agent-model", *model,
            "--user", "llm", "--user-model", *user,
        ]  # fmt: skip
        assert main(argv) == 0
    with ResultStore(store) as opened:
        (episode,) = opened.episodes("r")
    results = [
        (m["name"], m["content"], m["error"]) for m in episode.trajectory if m["role"] == "tool"
    ]
    assert results == EXPECTED
    assert episode.grade["termination"] == "user_stop"
    calls = [c for m in episode.trajectory for c in m.get("tool_calls") or []]
    assert calls[1]["arguments"]["annual_income"] == "85000"  # recorded as sent
