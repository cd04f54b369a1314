import json

from tau_env.utils.surrogates import escape_surrogates, json_utf8, replace_surrogates

HALF_EMOJI = "\ud83d"


def test_json_utf8__escapes_lone_surrogates_and_the_json_reads_back_the_same():
    value = {"content": f"Goodbye {HALF_EMOJI} caf\u00e9"}
    text = json.dumps(value, ensure_ascii=False)
    data = json_utf8(text)
    assert b"\\ud83d" in data and "caf\u00e9".encode() in data  # other text stays UTF-8
    assert json.loads(data) == value


def test_json_utf8__plain_text_is_plain_utf8():
    assert json_utf8('{"a": "\u00e9"}') == '{"a": "\u00e9"}'.encode()
    assert escape_surrogates("abc") == "abc"


def test_replace_surrogates__replaces_only_where_needed_and_copies_nothing_else():
    clean = [{"role": "user", "content": "hi"}]
    assert replace_surrogates(clean) is clean
    dirty = [{"role": "user", "content": f"a{HALF_EMOJI}"}, {"role": "assistant"}]
    fixed = replace_surrogates(dirty)
    assert fixed == [{"role": "user", "content": "a\ufffd"}, {"role": "assistant"}]
    assert fixed[1] is dirty[1] and dirty[0]["content"] == f"a{HALF_EMOJI}"
    json.dumps(fixed, ensure_ascii=False).encode("utf-8")
