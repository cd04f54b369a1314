"""Word lists of the built-in data generators (names, streets, cities), read from TOML.

Each generator keeps its lists in a TOML file next to it ("tables are data"). Order matters:
the generators draw from the lists by index, so reordering a list changes the generated data.
"""

from __future__ import annotations

from dataclasses import dataclass

from tau_env.data_files import builtin_toml

__all__ = ["WordLists", "word_lists"]


@dataclass(frozen=True)
class WordLists:
    """The pools invented customers are drawn from.

    Attributes:
        first_names, last_names: Names (invented combinations, no real people).
        streets: Street names, for ``<number> <street>`` addresses.
        cities: (city, state code, first three digits of its zip codes).
        card_brands: Credit card brands.
        email_domains: Domains of e-mail addresses (``.example`` ones).
        area_codes: Telephone area codes.
    """

    first_names: tuple[str, ...]
    last_names: tuple[str, ...]
    streets: tuple[str, ...]
    cities: tuple[tuple[str, str, str], ...]
    card_brands: tuple[str, ...] = ()
    email_domains: tuple[str, ...] = ()
    area_codes: tuple[str, ...] = ()


def word_lists(package: str, file: str) -> WordLists:
    """The lists of the TOML file `file` in `package` (a key per field of `WordLists`)."""
    table = builtin_toml(package, file)
    cities = tuple((city, state, zip_prefix) for city, state, zip_prefix in table.pop("cities"))
    return WordLists(cities=cities, **{key: tuple(words) for key, words in table.items()})
