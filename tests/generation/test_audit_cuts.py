"""``--require-audit``'s regeneration: family counts that bring every probe within 5%, the
candidates selected to them, and the family-stratified audit sample."""

from collections import Counter

from tau_env.generation.audit_cuts import by_quota, cut_record, plan_cuts
from tau_env.generation.audit_sample import stratified

CLEAN = {"refuse": 0.0, "transfer": 0.0}


def load(counts: dict[str, int], rates: dict[str, dict[str, float]], probe: str) -> float:
    return sum(counts[f] * rates[f][probe] for f in counts) / sum(counts.values())


def test_plan_cuts__cuts_the_family_a_probe_passes_and_grows_the_clean_ones():
    counts = {"a": 50, "b": 30, "c": 20}
    rates = {"a": CLEAN, "b": CLEAN, "c": {"refuse": 0.0, "transfer": 0.5}}  # 10% of the set
    planned = plan_cuts(counts, {"a": 100, "b": 100, "c": 20}, rates, 0.05)
    assert planned is not None and sum(planned.values()) == 100
    assert load(planned, rates, "transfer") <= 0.05
    assert planned["c"] == 10  # cut no further than needed
    assert planned["a"] > 50 and planned["b"] > 30  # both clean families grow...
    assert abs(planned["a"] / planned["b"] - 50 / 30) < 0.1  # ...in proportion to their size


def test_plan_cuts__a_set_within_the_limit_is_left_as_it_is():
    counts = {"a": 50, "c": 50}
    rates = {"a": CLEAN, "c": {"refuse": 0.02, "transfer": 0.08}}
    assert plan_cuts(counts, {"a": 60, "c": 60}, rates, 0.05) == counts


def test_plan_cuts__none_when_no_family_can_take_the_place_of_the_cut_one():
    rates = {"a": CLEAN, "c": {"refuse": 0.0, "transfer": 1.0}}
    assert plan_cuts({"a": 50, "c": 50}, {"a": 55, "c": 60}, rates, 0.05) is None  # too few a
    assert plan_cuts({"c": 10}, {"c": 20}, {"c": rates["c"]}, 0.05) is None  # no other family


def test_plan_cuts__two_probes_over_the_limit_are_both_brought_within_it():
    rates = {
        "a": CLEAN,
        "b": {"refuse": 0.4, "transfer": 0.0},
        "c": {"refuse": 0.0, "transfer": 0.3},
    }
    planned = plan_cuts({"a": 40, "b": 30, "c": 30}, {"a": 100, "b": 30, "c": 30}, rates, 0.05)
    assert planned is not None and sum(planned.values()) == 100
    assert all(load(planned, rates, probe) <= 0.05 for probe in CLEAN)


def test_by_quota__selects_each_family_its_count_keeping_draw_order_and_split_shares():
    candidates = [{"id": f"a{i}"} for i in range(12)] + [{"id": f"b{i}"} for i in range(6)]
    split_of = {t["id"]: ("test" if int(t["id"][1:]) % 3 == 0 else "train") for t in candidates}
    chosen = by_quota(
        candidates, {"a": 6, "b": 6}, lambda t: t["id"][0], lambda t: split_of[t["id"]]
    )
    assert Counter(t["id"][0] for t in chosen) == {"a": 6, "b": 6}
    assert chosen == sorted(chosen, key=candidates.index)
    assert Counter(split_of[t["id"]] for t in chosen if t["id"][0] == "a") == {
        "train": 4,
        "test": 2,
    }


def test_cut_record__names_the_families_cut_and_grown():
    record = cut_record({"a": 50, "b": 30, "c": 20}, {"a": 56, "b": 34, "c": 10})
    assert record["cut"] == {"c": {"from": 20, "to": 10}}
    assert record["grown"] == {"a": {"from": 50, "to": 56}, "b": {"from": 30, "to": 34}}


def test_stratified__every_family_gets_min_of_its_size_and_k_evenly_spaced():
    ids = [f"t{i}" for i in range(30)]
    family = {task_id: ("small" if i % 10 == 0 else "large") for i, task_id in enumerate(ids)}
    sample = stratified(ids, family, 5)
    assert Counter(family[t] for t in sample) == {"small": 3, "large": 5}
    assert sample == sorted(sample, key=ids.index)
    large = [t for t in ids if family[t] == "large"]
    assert [t for t in sample if family[t] == "large"] == [large[i * 27 // 5] for i in range(5)]
    assert stratified(ids, family, 1_000_000) == ids
