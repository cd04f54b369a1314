"""Finding a user by email or by name and zip without scanning every user.

The users table's shared base is a `UserDirectory`: a plain mapping that also builds, on first
use and once per process, indexes from a look-up key to the matching user ids in table order.
A look-up combines the index with the episode's copy-on-write changes, so it still sees an
address an episode changed (``modify_user_address`` changes the zip) and users a task added,
and returns exactly what a scan in table order would: the first matching user.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping
from typing import Any, TypeVar

from pydantic import BaseModel

from tau_env.state import Snapshot, Table

__all__ = ["UserDirectory", "first_user_matching", "with_user_directory"]

R = TypeVar("R", bound=BaseModel)

KeyFunction = Callable[[Any], Hashable]
"""A user's look-up key (the keys themselves, such as `data_model.email_key`, live with the
record type, which imports this module)."""


class UserDirectory(dict[str, Any]):
    """The shared users of a snapshot, with look-up indexes built on first use.

    Never modified after construction (episodes change users through their own overlay), so
    the indexes stay valid for the life of the process. Two threads that race to build an index
    build the same one; either result is kept.
    """

    def __init__(self, users: Mapping[str, Any]) -> None:
        super().__init__(users)
        self._indexes: dict[KeyFunction, dict[Hashable, tuple[str, ...]]] = {}
        self._positions: dict[str, int] | None = None

    def matching(self, key_of: KeyFunction, key: Hashable) -> tuple[str, ...]:
        """Ids of the base users whose key equals `key`, in table order."""
        index = self._indexes.get(key_of)
        if index is None:
            built: dict[Hashable, list[str]] = {}
            for user_id, user in self.items():
                built.setdefault(key_of(user), []).append(user_id)
            index = {found: tuple(ids) for found, ids in built.items()}
            self._indexes[key_of] = index
        return index.get(key, ())

    def position(self, user_id: str) -> int:
        """Where a base user stands in table order."""
        if self._positions is None:
            self._positions = {user_id: rank for rank, user_id in enumerate(self)}
        return self._positions[user_id]


def with_user_directory(snapshot: Snapshot) -> Snapshot:
    """The same snapshot with its users base wrapped in a `UserDirectory`."""
    users = snapshot.records["users"]
    if isinstance(users, UserDirectory):
        return snapshot
    records = dict(snapshot.records)
    records["users"] = UserDirectory(users)
    return Snapshot(snapshot.layout, records)


def first_user_matching(
    users: Table[R], base: Mapping[str, Any], key_of: Callable[[R], Hashable], key: Hashable
) -> str | None:
    """The id of the first user, in table order, whose key equals `key`, or None.

    Args:
        users: The episode's users table.
        base: The snapshot's users base (a `UserDirectory` gives indexed look-ups; any other
            mapping falls back to a scan).
        key_of: Computes a user's look-up key.
        key: The key wanted.
    """
    if not isinstance(base, UserDirectory):
        return next((uid for uid, user in users.items() if key_of(user) == key), None)
    changed = users.changed_keys()
    if not changed:
        found = base.matching(key_of, key)
        return found[0] if found else None
    touched = set(changed)
    best: tuple[int, str] | None = None
    for user_id in base.matching(key_of, key):
        if user_id not in touched:  # unchanged base users: the first in base order is enough
            best = (base.position(user_id), user_id)
            break
    for rank, user_id in enumerate(changed):
        user = users.get(user_id)
        if user is None or key_of(user) != key:
            continue
        place = base.position(user_id) if user_id in base else len(base) + rank
        if best is None or place < best[0]:
            best = (place, user_id)
    return None if best is None else best[1]
