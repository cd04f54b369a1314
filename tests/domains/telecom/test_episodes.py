"""Whole telecom episodes: gold replays reach 1.0 on every data source, split and variant."""

import pytest

import tau_env
import tau_env.errors
from tau_env.baselines.oracle import OracleAgent
from tau_env.cli.main import main
from tau_env.env.aec import TauEnv
from tau_env.episode_runner import run_episode
from tau_env.tasks.model import InitializationData
from tau_env.wrappers.users import GoldUser


@pytest.mark.parametrize("domain", ["telecom", "telecom-workflow"])
def test_validate__builtin_reaches_one_on_every_task(domain, capsys):
    assert main(["validate", "--domain", domain]) == 0
    assert capsys.readouterr().out.strip() == "480/480 tasks reach reward 1.0"


@pytest.mark.parametrize("domain", ["telecom", "telecom-workflow"])
def test_validate__official_base_reaches_one_on_114(domain, data_dir, capsys):
    assert main(["validate", "--domain", domain, "--data-dir", str(data_dir)]) == 0
    assert capsys.readouterr().out.strip() == "114/114 tasks reach reward 1.0"


def test_validate__official_full_reaches_one_on_2285(data_dir, capsys):
    assert (
        main(["validate", "--domain", "telecom", "--data-dir", str(data_dir), "--split", "full"])
        == 0
    )
    assert capsys.readouterr().out.strip() == "2285/2285 tasks reach reward 1.0"


def test_official__splits_and_policy_assembly(data_dir):
    folder = data_dir / "domains" / "telecom"
    sizes = {
        split: len(tau_env.load_tasks("telecom", data_dir=data_dir, split=split))
        for split in ("base", "small", "train", "test", "full")
    }
    assert sizes == {"base": 114, "small": 20, "train": 74, "test": 40, "full": 2285}
    assert len(tau_env.load_tasks("telecom", data_dir=data_dir)) == 114
    main_policy = (folder / "main_policy.md").read_text()
    for name, tech_file, solo_tech in [
        ("telecom", "tech_support_manual.md", "tech_support_manual.md"),
        ("telecom-workflow", "tech_support_workflow.md", "tech_support_workflow_solo.md"),
    ]:
        domain = tau_env.load_domain(name, data_dir)
        tech = (folder / tech_file).read_text()
        assert domain.policy == (
            f"<main_policy>\n{main_policy}\n</main_policy>\n<tech_support_policy>\n{tech}\n</tech_support_policy>"
        )
        solo = (folder / "main_policy_solo.md").read_text()
        assert domain.data.solo_policy.startswith(f"<main_policy>\n{solo}\n</main_policy>")
        assert domain.data.solo_policy.endswith(
            (folder / solo_tech).read_text() + "\n</tech_support_policy>"
        )
        assert set(domain.data.guidelines) == {
            "simulation_guidelines",
            "simulation_guidelines_tools",
        }
    manual, workflow = (
        tau_env.load_domain("telecom", data_dir),
        tau_env.load_domain("telecom-workflow", data_dir),
    )
    assert manual.tasks is workflow.tasks  # tasks.json is parsed once for both variants


def test_builtin__splits_policy_and_registration():
    domain = tau_env.load_domain("telecom")
    splits = {name: set(ids) for name, ids in domain.data.splits.items()}
    assert set(splits) == {"base", "train", "test", "test_ood"}
    assert not splits["train"] & (splits["test"] | splits["test_ood"])
    assert splits["base"] == splits["train"] | splits["test"] | splits["test_ood"]
    sizes = (len(splits["train"]), len(splits["test"]), len(splits["test_ood"]))
    assert sizes == (300, 120, 60)
    assert domain.policy.startswith("<main_policy>\n# Customer support policy")
    assert "<tech_support_policy>\n# Technical support manual" in domain.policy
    workflow = tau_env.load_domain("telecom-workflow")
    assert "# Technical support workflow" in workflow.policy and workflow.tasks is domain.tasks
    assert "call `done`" in domain.data.solo_policy
    assert (
        tau_env.make("tau/telecom-workflow-v0").unwrapped.domain.env_id == "tau/telecom-workflow-v0"
    )


def test_gold_episode__trajectory_is_deterministic_for_a_seed():
    env = tau_env.make_env("telecom", split="test")
    for task in env.unwrapped.tasks[:40]:
        first = run_episode(env, OracleAgent, GoldUser, task_id=task.id, seed=9)
        second = run_episode(env, OracleAgent, GoldUser, task_id=task.id, seed=9)
        assert [m.model_dump() for m in first.trajectory] == [
            m.model_dump() for m in second.trajectory
        ]
        assert first.reward == 1.0


def test_unfixable_task__ends_in_a_transfer_graded_on_action_and_db():
    env = tau_env.make_env("telecom")
    task = next(
        t
        for t in env.unwrapped.tasks
        if "contract_end_suspension" in t.description.parameters["issues"]
    )
    result = run_episode(env, OracleAgent, GoldUser, task_id=task.id, seed=0)
    assert result.trajectory[-1].content == "###TRANSFER###"
    assert result.grade.breakdown == {"ENV_ASSERTION": 1.0, "DB": 1.0, "ACTION": 1.0}


def test_official__a_missing_policy_file_is_named(data_dir, tmp_path):
    folder = tmp_path / "domains" / "telecom"
    folder.mkdir(parents=True)
    for item in (data_dir / "domains" / "telecom").iterdir():
        if item.name != "tech_support_workflow.md":
            (folder / item.name).symlink_to(item)
    assert len(tau_env.load_domain("telecom", tmp_path).tasks) == 2285  # the manual variant loads
    with pytest.raises(
        tau_env.errors.DataError, match=r"tech_support_workflow\.md: file not found"
    ):
        tau_env.load_domain("telecom-workflow", tmp_path)


def _refuel_without_a_draft_bill(domain):
    """A built-in refuel task whose customer has no draft bill, so refuelling opens one.

    Built-in customers come with a draft bill; the variant unlinks it in its initial state
    (``initialization_data``), as a customer between billing cycles would be.
    """
    task = next(t for t in domain.tasks if any(a.name == "refuel_data" for a in t.gold_actions))
    customer_id = next(a for a in task.gold_actions if a.name == "refuel_data").arguments[
        "customer_id"
    ]
    db = domain.prepare(task).initial_world.agent_db
    customer = db.customers[customer_id]
    kept = [b for b in customer.bill_ids if db.bills[b].status != "Draft"]
    assert kept != customer.bill_ids, "the customer has no draft bill to remove"
    customers = [  # a list-shaped table: the patch gives it whole
        db.customers[key].model_dump(mode="json")
        | ({"bill_ids": kept} if key == customer_id else {})
        for key in db.customers
    ]
    patch = {"customers": customers}
    state = task.initial_state.model_copy(
        update={"initialization_data": InitializationData(agent_data=patch)}
    )
    return task.model_copy(update={"id": f"{task.id}-no-draft", "initial_state": state})


def test_db_diagnostic__expected_world_replays_with_the_episode_seed():
    # Refuelling opens a bill whose id is drawn at random when the customer has no draft bill
    # (official customers, and built-in ones, already have one: the task variant removes it).
    # Replaying the gold plan with fresh randomness, as before (and as the reference does with
    # uuid4), made the DB diagnostic report a spurious bill; here the same episode gives the
    # same diagnostic every time, and a gold episode none at all.
    domain = tau_env.load_domain("telecom")
    task = _refuel_without_a_draft_bill(domain)
    env = TauEnv(domain, [task])  # every reset plays the variant
    assert domain.expected_world(task).seed_source.drawn
    checks = [
        run_episode(env, OracleAgent, GoldUser, seed=seed).grade.checks["DB"] for seed in (3, 3, 11)
    ]
    assert [(c.reward, c.details) for c in checks] == [(1.0, [])] * 3
    first, again = domain.expected_world(task, 5), domain.expected_world(task, 5)
    assert first is not again and first.differences(again) == []
    other = domain.expected_world(task, 6).differences(first)
    assert other and all(path.startswith(("agent:bills/", "agent:customers/")) for path in other)


def test_expected_world__computed_once_when_the_gold_plan_draws_nothing(data_dir):
    domain = tau_env.load_domain("telecom", data_dir)
    task = next(
        t for t in domain.split(None) if any(a.name == "refuel_data" for a in t.gold_actions)
    )
    assert not domain.expected_world(task).seed_source.drawn
    assert domain.expected_world(task, 1) is domain.expected_world(task, 2)
