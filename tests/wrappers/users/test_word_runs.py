"""The word runs both instruction checks share: normalising, a text's runs, a message's repeats."""

from tau_env.wrappers.users.word_runs import CONTRACTIONS, SAME_WORDS, repeated_runs, runs_of


def test_runs_of__every_window_of_the_length():
    words = ("a", "b", "c", "d")
    assert runs_of(words, 3) == {("a", "b", "c"), ("b", "c", "d")}
    assert runs_of(words, 5) == frozenset()


def test_repeated_runs__overlapping_runs_merge_and_separate_ones_do_not():
    runs = runs_of(("a", "b", "c", "d", "x", "y", "z"), 2)
    said = ("q", "a", "b", "c", "q", "x", "y", "q")
    assert repeated_runs(said, runs, 2) == ["a b c", "x y"]
    assert repeated_runs(("q", "r"), runs, 2) == []


def test_normalising__contractions_spelled_out_and_person_words_as_one():
    text = "you'd say i can't"
    for pattern, spelled in CONTRACTIONS:
        text = pattern.sub(spelled, text)
    assert text == "you would say i can not"
    assert {SAME_WORDS[w] for w in ("i", "my", "you", "yours")} == {"<person>"}
