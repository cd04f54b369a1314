"""The featurized telecom view: features come only from what the agent saw; masks; templates."""

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env as gymnasium_check_env

from tau_env.actions import CallTool, SendMessage, Stop
from tau_env.messages import AssistantMessage, RequestedToolCall, UserRequest
from tau_env.transfer import TRANSFER_ANNOUNCEMENT
from tau_env.wrappers.rl import FeaturizedEnv, make_telecom_featurized_env
from tests.families import task_of
from tests.fresh_imports import loaded_after

# One task per situation the tests need (built-in data, split "base").
AIRPLANE_ONLY = task_of(
    "telecom",
    "service_issue",
    issues="airplane_mode_on",
    persona="None",
    customer="C2010",
    keep="data_off|network_3g_only",
).id
SIM_LOCKED = task_of(
    "telecom", "service_issue", issues="lock_sim_card_pin", persona="Easy", customer="C2004"
).id
SERVICE_SUSPENDED = task_of(
    "telecom",
    "service_issue",
    issues="airplane_mode_on|break_apn_settings|overdue_bill_suspension|unseat_sim_card",
    persona="None",
    customer="C2003",
).id


@pytest.fixture(scope="module")
def env():
    return make_telecom_featurized_env(split="base", style="plain")


def feature(env, name):
    return float(env.featurizer.features()[env.feature_names.index(name)])


def play(env, *templates):
    result = None
    for name in templates:
        assert env.action_masks()[env.template_names.index(name)], f"{name} is masked"
        result = env.step(env.template_names.index(name))
    return result


def test_spaces__box_and_discrete_with_named_entries(env):
    assert env.observation_space.shape == (len(env.feature_names),)
    assert env.action_space.n == len(env.template_names)
    assert len(set(env.feature_names)) == len(env.feature_names)
    features, info = env.reset(seed=0)
    assert env.observation_space.contains(features)
    assert info["action_mask"].shape == (env.action_space.n,)


def test_reset__only_the_opening_is_known(env):
    observation, _ = env.reset(seed=0, options={"task_id": SERVICE_SUSPENDED})
    named = zip(env.feature_names, observation, strict=True)
    known = {n for n, v in named if v > 0 and not n.startswith("applies:")}
    # The opening names the intent (and says there is no service); the greeting and the opening
    # used two steps; no check is current, no template taken; nothing else is known.
    assert known == {"intent=service", "signal=none", "turn"}


def test_observation__ends_with_the_action_mask_named_by_template(env):
    start = len(env.featurizer.feature_names)
    assert env.feature_names[start:] == tuple(f"applies:{name}" for name in env.template_names)
    observation, info = env.reset(seed=0, options={"task_id": SERVICE_SUSPENDED})
    np.testing.assert_array_equal(observation[start:], info["action_mask"].astype(np.float32))
    assert observation[env.feature_names.index("applies:ask_phone_number")] == 1
    assert observation[env.feature_names.index("applies:get_customer_by_phone")] == 0
    observation, _, _, _, info = play(env, "ask_phone_number")
    np.testing.assert_array_equal(observation[start:], info["action_mask"].astype(np.float32))
    # The phone number is known now: asking for it no longer applies, the lookup does.
    assert observation[env.feature_names.index("applies:ask_phone_number")] == 0
    assert observation[env.feature_names.index("applies:get_customer_by_phone")] == 1


def test_reset__tasks_with_the_same_opening_look_the_same(env):
    """The features at reset cannot tell tasks apart by their hidden issues or customer."""
    first, _ = env.reset(seed=0, options={"task_id": SERVICE_SUSPENDED})
    second, _ = env.reset(seed=1, options={"task_id": SIM_LOCKED})
    np.testing.assert_array_equal(first, second)


def test_account_features__appear_only_after_the_lookups(env):
    env.reset(seed=0, options={"task_id": SERVICE_SUSPENDED})
    assert feature(env, "phone_number_known") == 0
    play(env, "ask_phone_number")
    assert feature(env, "phone_number_known") == 1
    assert env.featurizer.belief.phone_number == "555-210-3004"
    assert feature(env, "customer_found") == 0
    play(env, "get_customer_by_phone")
    assert feature(env, "customer_found") == 1
    assert feature(env, "line_suspended") == 0  # not looked up yet
    play(env, "get_line_details")
    assert (feature(env, "line_found"), feature(env, "line_suspended")) == (1, 1)
    assert feature(env, "contract_running") == 1  # the line's contract ends in 2026
    assert feature(env, "overdue_bill") == 0
    play(env, "get_bills")
    assert feature(env, "overdue_bill") == 1
    assert env.featurizer.belief.overdue_bill_id == "B200399"


def test_device_features__appear_only_after_the_user_reports_them(env):
    env.reset(seed=0, options={"task_id": SERVICE_SUSPENDED})
    assert not any(feature(env, f"sim={value}") for value in ("active", "missing", "locked"))
    play(env, "check_sim_status")
    assert feature(env, "sim=missing") == 1
    assert feature(env, "current:check_sim_status") == 1
    assert feature(env, "taken:check_sim_status") > 0
    assert feature(env, "airplane_mode=on") == 1  # the user's goal check showed the status bar


def test_fix__updates_the_fact_from_the_reported_result(env):
    env.reset(seed=0, options={"task_id": SERVICE_SUSPENDED})
    play(env, "check_status_bar")
    assert feature(env, "airplane_mode=on") == 1
    play(env, "turn_airplane_mode_off")
    assert (feature(env, "airplane_mode=on"), feature(env, "airplane_mode=off")) == (0, 1)


def test_masks__need_the_arguments_first(env):
    env.reset(seed=0, options={"task_id": SERVICE_SUSPENDED})
    mask = dict(zip(env.template_names, env.action_masks(), strict=True))
    for name in ("get_customer_by_phone", "get_bills", "resume_line", "make_payment"):
        assert not mask[name], name
    for name in ("ask_phone_number", "check_status_bar", "transfer", "end"):
        assert mask[name], name
    play(env, "ask_phone_number", "get_customer_by_phone", "get_line_details", "get_bills")
    mask = dict(zip(env.template_names, env.action_masks(), strict=True))
    assert mask["send_payment_request"] and mask["resume_line"]
    assert not mask["make_payment"]  # no payment request yet
    assert not mask["get_customer_by_phone"]  # already found


def test_features__a_check_is_current_until_the_phone_changes(env):
    """Whether a check's answer still holds is a feature; the check itself stays formable."""
    env.reset(seed=0, options={"task_id": SERVICE_SUSPENDED})
    index = env.template_names.index
    play(env, "check_sim_status", "check_status_bar")
    assert feature(env, "current:check_sim_status") == 1
    play(env, "turn_airplane_mode_off")  # cannot change the SIM's state
    assert feature(env, "current:check_sim_status") == 1
    assert feature(env, "current:check_status_bar") == 0  # the status bar can change
    play(env, "reseat_sim_card")
    assert feature(env, "current:check_sim_status") == 0
    assert env.action_masks()[index("check_sim_status")]


def test_masks__a_change_on_the_phone_is_formable_before_any_check(env):
    """The mask never says what the phone needs: the checks' facts do (issue 53)."""
    env.reset(seed=0, options={"task_id": SERVICE_SUSPENDED})
    index = env.template_names.index
    assert env.action_masks()[index("turn_airplane_mode_off")]
    assert feature(env, "airplane_mode=on") == 0
    play(env, "check_network_status")
    assert feature(env, "airplane_mode=on") == 1
    play(env, "turn_airplane_mode_off")
    assert env.action_masks()[index("turn_airplane_mode_off")]
    assert feature(env, "airplane_mode=on") == 0


def test_template__asks_the_user_with_exactly_one_structured_call(env):
    env.reset(seed=0, options={"task_id": AIRPLANE_ONLY})
    index = env.template_names.index
    featurizer = env.featurizer
    assert featurizer.actions(index("check_messaging_permissions")) == [
        SendMessage(
            content="Could you check the permissions of your messaging app?",
            request=UserRequest(
                tool_calls=[
                    RequestedToolCall(
                        name="check_app_permissions", arguments={"app_name": "messaging"}
                    )
                ]
            ),
        )
    ]
    [grant] = featurizer.actions(index("grant_storage_permission"))
    assert grant.request == UserRequest(
        tool_calls=[
            RequestedToolCall(
                name="grant_app_permission",
                arguments={"app_name": "messaging", "permission": "storage"},
            )
        ]
    )
    [ask] = featurizer.actions(index("ask_phone_number"))
    assert ask.request == UserRequest(facts=["phone_number"])
    assert featurizer.actions(index("end")) == [Stop()]


def test_template__the_message_reaches_the_user_with_its_request(env):
    env.reset(seed=0, options={"task_id": AIRPLANE_ONLY})
    play(env, "check_status_bar")
    sent = [m for m in env.env.aec.view("user").history if isinstance(m, AssistantMessage)]
    assert sent[-1].request == UserRequest(tool_calls=[RequestedToolCall(name="check_status_bar")])


def test_template__agent_tools_get_the_revealed_arguments(env):
    env.reset(seed=0, options={"task_id": SERVICE_SUSPENDED})
    play(env, "ask_phone_number", "get_customer_by_phone", "get_line_details", "get_bills")
    index = env.template_names.index
    assert env.featurizer.actions(index("send_payment_request")) == [
        CallTool(
            name="send_payment_request", arguments={"customer_id": "C2003", "bill_id": "B200399"}
        )
    ]
    assert env.featurizer.actions(index("resume_line")) == [
        CallTool(name="resume_line", arguments={"customer_id": "C2003", "line_id": "L2004"})
    ]


def test_transfer__calls_the_tool_then_announces(env):
    env.reset(seed=0, options={"task_id": SIM_LOCKED})
    moves = env.featurizer.actions(env.template_names.index("transfer"))
    assert [type(m) for m in moves] == [CallTool, SendMessage]
    assert moves[0].name == "transfer_to_human_agents"
    assert moves[1].content == TRANSFER_ANNOUNCEMENT


def test_transfer__solves_an_unfixable_task_once_seen_and_fails_a_fixable_one(env):
    env.reset(seed=0, options={"task_id": SIM_LOCKED})
    _, reward, terminated, _, _ = play(env, "transfer")
    assert (reward, terminated) == (1.0, True)
    env.reset(seed=0, options={"task_id": AIRPLANE_ONLY})
    _, reward, terminated, _, _ = play(env, "transfer")
    assert (reward, terminated) == (0.0, True)


def test_fixing_the_problem__ends_with_reward_one(env):
    env.reset(seed=0, options={"task_id": AIRPLANE_ONLY})
    _, reward, terminated, _, info = play(env, "check_network_status", "turn_airplane_mode_off")
    assert (reward, terminated) == (1.0, True)
    assert info["grade"]["termination"] == "user_stop"


def test_masked_template__sends_nothing_and_uses_a_turn(env):
    env.reset(seed=0, options={"task_id": AIRPLANE_ONLY})
    before = len(env.env.aec.view("agent").history)
    index = env.template_names.index("resume_line")
    assert not env.action_masks()[index]
    _, reward, terminated, truncated, info = env.step(index)
    assert len(env.env.aec.view("agent").history) == before
    assert (reward, terminated, truncated, info["turn"]) == (0.0, False, False, 1)
    assert feature(env, "taken:resume_line") > 0


def test_max_turns__truncates():
    env = make_telecom_featurized_env(split="base", max_turns=2)
    env.reset(seed=0, options={"task_id": AIRPLANE_ONLY})
    index = env.template_names.index("reboot_device")
    assert env.step(index)[3] is False
    assert env.step(index)[3] is True


def test_task_ids__restrict_the_draw_and_are_validated():
    env = make_telecom_featurized_env(split="base", task_ids=[AIRPLANE_ONLY])
    for seed in range(3):
        env.reset(seed=seed)
        assert env.task.id == AIRPLANE_ONLY
    with pytest.raises(ValueError, match="unknown"):
        make_telecom_featurized_env(split="base", task_ids=["no-such-task"])


def test_bad_template_index__is_a_clear_error(env):
    env.reset(seed=0)
    with pytest.raises(ValueError, match="template index"):
        env.step(env.action_space.n)


def test_gymnasium_check_env__passes(env):
    gymnasium_check_env(env, skip_render_check=True)


def test_bad_limits__are_clear_errors(env):
    with pytest.raises(ValueError, match="max_turns"):
        make_telecom_featurized_env(split="base", max_turns=0)
    with pytest.raises(ValueError, match="max_turns"):
        FeaturizedEnv(env.env, type(env.featurizer), max_turns=-1)


def test_import__needs_neither_torch_nor_sb3():
    assert loaded_after("import tau_env.wrappers.rl", ("torch", "stable_baselines3")) == []


def test_name_lookup__finds_the_customer_from_the_name_and_birth_date(env):
    env.reset(seed=0, options={"task_id": SERVICE_SUSPENDED})
    index = env.template_names.index
    assert not env.action_masks()[index("get_customer_by_name")]
    play(env, "ask_name_and_birth_date")
    assert feature(env, "name_and_birth_date_known") == 1
    assert env.featurizer.actions(index("get_customer_by_name")) == [
        CallTool(
            name="get_customer_by_name",
            arguments={"full_name": "Priya Raman", "dob": "1992-07-21"},
        )
    ]
    env.reset(seed=0, options={"task_id": SERVICE_SUSPENDED})
    play(env, "ask_name_and_birth_date", "get_customer_by_name")
    assert env.featurizer.belief.customer_id == "C2003"


def test_harmful_account_changes__are_offered_and_read_back(env):
    """suspend_line and disable_roaming exist as templates (an agent must learn to avoid them)."""
    env.reset(seed=0, options={"task_id": AIRPLANE_ONLY})
    play(env, "ask_phone_number", "get_customer_by_phone")
    while env.featurizer.belief.line_id is None:
        play(env, "get_line_details")
    assert env.featurizer.belief.line_suspended is False
    play(env, "suspend_line")
    assert env.featurizer.belief.line_suspended is True
    assert env.action_masks()[env.template_names.index("resume_line")]


def test_info__never_names_the_task_unless_asked(env):
    _, info = env.reset(seed=0, options={"task_id": AIRPLANE_ONLY})
    assert "task_id" not in info
    *_, info = env.step(env.template_names.index("check_status_bar"))
    assert "task_id" not in info
    revealing = make_telecom_featurized_env(split="base", reveal_task=True)
    assert (
        revealing.reset(seed=0, options={"task_id": AIRPLANE_ONLY})[1]["task_id"] == AIRPLANE_ONLY
    )


def test_mistakes_and_omissions__let_the_move_be_asked_again():
    """A novice who asks for an instruction again, or leaves a check's answer out: the template
    stays available and what was known stays known."""
    env = make_telecom_featurized_env(split="base", style="novice", user_seed=3)
    index = env.template_names.index
    env.reset(seed=0, options={"task_id": AIRPLANE_ONLY})
    play(env, "check_network_status")
    for _ in range(10):
        if env.featurizer.belief.device.get("airplane_mode") == "on":
            break
        play(env, "check_network_status")
    assert env.featurizer.belief.device["airplane_mode"] == "on"
    for _ in range(6):
        if env.featurizer.belief.device.get("airplane_mode") != "on":
            break
        *_, terminated, _, _ = env.step(index("turn_airplane_mode_off"))
        if terminated:
            break
    assert env.featurizer.belief.device.get("airplane_mode") != "on"


def test_features__say_whether_a_restart_would_change_anything(env):
    """A second restart with no change in between changes nothing: a feature says so, and
    the restart stays formable (avoiding it is the agent's to learn)."""
    env.reset(seed=0, options={"task_id": SERVICE_SUSPENDED})
    reboot = env.template_names.index("reboot_device")
    assert env.action_masks()[reboot]
    play(env, "reboot_device", "check_status_bar")
    assert env.action_masks()[reboot]
    assert feature(env, "changed_since_reboot") == 0
    play(env, "turn_airplane_mode_off")
    assert feature(env, "changed_since_reboot") == 1
