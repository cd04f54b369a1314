"""Normalising, stemming and finding phrases (the scripted user's reading primitives)."""

from __future__ import annotations

from tau_env.wrappers.users.phrases import PhraseTable, stem, words_of


def test_stem__equates_inflections_and_keeps_identifiers():
    assert {stem(w) for w in ("restart", "restarts", "restarted", "restarting")} == {"restart"}
    assert stem("settings") == stem("setting") != stem("set")
    assert stem("messaging") != stem("message")
    assert stem("notif_1") == "notif_1" and stem("4g") == "4g"


def test_words__spell_out_contractions_and_joined_words():
    words = words_of("Don't re-insert the SIM; it's the phone's Wi-Fi > APN")
    assert words.surface == (
        "do", "not", "reinsert", "the", "sim", ";", "it", "is", "the", "phone", "wifi", ">", "apn"
    )  # fmt: skip


def test_phrase_table__prefers_longer_phrases_and_bridges_gaps_within_a_clause():
    table = PhraseTable([("data", "data"), ("data saver", "saver"), ("turn … off", "off")])
    found = table.find(words_of("Turn data saver off"))
    assert [(m.label, m.positions) for m in found] == [("off", (0, 3)), ("saver", (1, 2))]
    # no gap runs across a comma
    assert [m.label for m in table.find(words_of("turn data on, then off"))] == ["data"]
