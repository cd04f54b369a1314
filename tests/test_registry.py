"""The registry's names: versioned ids, canonical domain names, suggestions for near misses."""

import pytest

from tau_env.errors import UnregisteredEnv, VersionNotFound
from tau_env.registry import EnvSpec, canonical_domain, registry


def test_canonical_domain__a_versioned_id_is_its_domain():
    # Issue 55 item 6: `--domain tau/airline-v0` was stored as a domain of its own.
    assert canonical_domain("tau/airline-v0") == canonical_domain("airline") == "airline"
    assert canonical_domain("tau/telecom-workflow-v0") == "telecom-workflow"


def test_canonical_domain__refuses_a_version_that_is_not_played(monkeypatch):
    newer = EnvSpec("tau/mock-v7", "mock", 7, registry["tau/mock-v0"].entry_point)
    monkeypatch.setitem(registry, newer.id, newer)
    with pytest.raises(VersionNotFound, match=r"'tau/mock-v0' is not the latest version"):
        canonical_domain("tau/mock-v0")
    assert canonical_domain("tau/mock-v7") == "mock"
    with pytest.raises(VersionNotFound, match="available versions"):
        canonical_domain("tau/mock-v9")


@pytest.mark.parametrize(
    ("name", "hint"),
    [
        ("tau_env/Airline-v0", "a Gymnasium id, of the domain 'airline'"),
        ("tau_env/BankingKnowledge-LLMUser-v0", "of the domain 'banking_knowledge'"),
        ("tau_env/RetailFeaturized-v0", "of the domain 'retail'"),
        ("bank", "did you mean 'banking_knowledge'?"),
        ("banking", "did you mean 'banking_knowledge'?"),
        ("AIRLINE", "did you mean 'airline'?"),
    ],
)
def test_unknown_names__get_the_domain_they_point_at(name, hint):
    with pytest.raises(UnregisteredEnv) as caught:
        canonical_domain(name)
    assert hint in str(caught.value)


def test_unknown_names__like_no_domain_get_no_suggestion():
    with pytest.raises(UnregisteredEnv) as caught:
        canonical_domain("ba")  # too short to be a domain's beginning
    assert "did you mean" not in str(caught.value)
