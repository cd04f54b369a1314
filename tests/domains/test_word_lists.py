"""`word_lists`: the generators' TOML word lists, as typed tuples in the file's order."""

import pytest

from tau_env.domains.word_lists import WordLists, word_lists


@pytest.mark.parametrize(
    ("package", "file"),
    [
        ("tau_env.domains.airline.generator", "names.toml"),
        ("tau_env.domains.retail.generator", "people.toml"),
        ("tau_env.domains.banking_knowledge.generator", "people.toml"),
    ],
)
def test_word_lists__every_generator_file_reads_as_tuples(package, file):
    words = word_lists(package, file)
    assert isinstance(words, WordLists)
    assert words.first_names and words.last_names and words.streets
    assert all(isinstance(city, tuple) and len(city) == 3 for city in words.cities)
    assert len(set(words.first_names)) == len(words.first_names)  # no name twice


def test_word_lists__keeps_the_order_of_the_file():
    words = word_lists("tau_env.domains.airline.generator", "names.toml")
    assert words.first_names[:3] == ("Ada", "Alma", "Amir")
    assert words.cities[0] == ("Portland", "OR", "972")
