"""User look-ups by index: the answers of a scan in table order, whatever the episode changed."""

from hypothesis import given, settings
from hypothesis import strategies as st

from tau_env.domains.retail import TOOLBOX
from tau_env.domains.retail.data_model import RetailDB, User, email_key, name_zip_key
from tau_env.domains.retail.lookup import (
    UserDirectory,
    first_user_matching,
)
from tau_env.state import Journal, World
from tau_env.state.database import SeedSource
from tests.domains.retail.conftest import STORE, call

MOVE = {"address1": "2 Lane", "address2": "", "city": "X", "state": "NY", "country": "USA"}


def test_snapshot__users_base_is_an_indexed_directory(store_snapshot):
    assert isinstance(store_snapshot.records["users"], UserDirectory)


def test_name_zip__follows_an_address_change_made_in_the_episode(world):
    assert not call(
        world, "modify_user_address", user_id="ada_abbott_1000", zip="12345", **MOVE
    ).error
    found = call(
        world, "find_user_id_by_name_zip", first_name="Ada", last_name="Abbott", zip="12345"
    )
    assert found.content == "ada_abbott_1000"  # first in table order, ahead of ada_abbott_3000
    old = call(world, "find_user_id_by_name_zip", first_name="Ada", last_name="Abbott", zip="97201")
    assert old.content == "Error: User not found"


def test_lookups__see_users_added_and_removed_by_a_patch(world):
    newcomer = {**STORE["users"]["bruno_banerjee_2000"], "user_id": "new_1", "email": "N@x.org"}
    world.agent_db.apply_patch({"users": {"new_1": newcomer}}, source="test")
    assert call(world, "find_user_id_by_email", email="n@X.ORG").content == "new_1"
    world.agent_db.users.delete("ada_abbott_3000")
    assert (
        call(world, "find_user_id_by_email", email="ada.abbott@example.org").content
        == "Error: User not found"
    )


def _scan(users, key_of, key):
    return next((uid for uid, user in users.items() if key_of(user) == key), None)


ZIPS = st.sampled_from(["97201", "12345", "78701"])
EMAILS = st.sampled_from(["ada.abbott@example.com", "bruno@example.com", "x@example.com"])
USERS = st.sampled_from(["ada_abbott_1000", "bruno_banerjee_2000", "ada_abbott_3000", "new_1"])
CHANGES = st.lists(
    st.one_of(
        st.tuples(st.just("zip"), USERS, ZIPS),
        st.tuples(st.just("email"), USERS, EMAILS),
        st.tuples(st.just("delete"), USERS, st.just("")),
    ),
    max_size=6,
)


@settings(max_examples=150, deadline=None)
@given(changes=CHANGES, zip_code=ZIPS, email=EMAILS)
def test_indexed_lookup__equals_a_scan_in_table_order(store_snapshot, changes, zip_code, email):
    journal, source = Journal(), SeedSource(0)
    world = World(TOOLBOX, RetailDB(store_snapshot, journal, source), None, journal, source)
    users = world.agent_db.users
    for kind, user_id, value in changes:
        if kind == "delete":
            if user_id in users:
                users.delete(user_id)
            continue
        if user_id not in users:  # a fresh record (never a shared one) under the missing id
            users.insert(user_id, _ada(user_id))
            journal.commit()
        record = users.edit(user_id)
        if kind == "zip":
            record.address.zip = value
        else:
            record.email = value
        journal.commit()
    base = store_snapshot.records["users"]
    for key_of, key in (
        (email_key, email),
        (name_zip_key, ("ada", "abbott", zip_code)),
        (name_zip_key, ("bruno", "banerjee", zip_code)),
    ):
        assert first_user_matching(users, base, key_of, key) == _scan(users, key_of, key)
        assert first_user_matching(users, dict(base), key_of, key) == _scan(users, key_of, key)


def _ada(user_id):
    return User.model_validate({**STORE["users"]["ada_abbott_3000"], "user_id": user_id})
