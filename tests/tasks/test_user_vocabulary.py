"""A domain's words for the scripted user: the request lexicon read from TOML."""

from __future__ import annotations

import tomllib

import tau_env
from tau_env.tasks.user_vocabulary import ParameterWords, RequestLexicon, ToolWords

LAYOUT = """
[actions]
reseat = ["reseat", "take … out"]

[objects.sim]
say = ["sim", "sim card"]
shown_by = "check_sim"

[objects.phone]
say = ["phone"]
container = true

[tools.reseat_sim]
does = ["reseat"]
on = ["sim"]
alone = ["reseat"]

[tools.toggle_data]
does = ["switch_on", "switch_off"]
on = ["data"]
toggle = true

[values.mode]
object = "network"
"4g_only" = ["4g only", "lte only"]

[parameters.card_type]
pattern = "([A-Z]\\\\w+ Card)"
facts = ["card"]
"""


def test_from_toml__reads_every_table_of_the_layout():
    lexicon = RequestLexicon.from_toml(tomllib.loads(LAYOUT))
    assert lexicon.actions == {"reseat": ("reseat", "take … out")}
    assert lexicon.objects == {"sim": ("sim", "sim card"), "phone": ("phone",)}
    assert lexicon.shown_by == {"sim": "check_sim"}
    assert lexicon.containers == frozenset({"phone"})
    assert lexicon.tools["reseat_sim"] == ToolWords(("reseat",), ("sim",), ("reseat",), False)
    assert lexicon.tools["toggle_data"].toggle
    assert lexicon.values == {"mode": {"4g_only": ("4g only", "lte only")}}
    assert lexicon.value_objects == {"mode": "network"}
    assert lexicon.parameters["card_type"] == ParameterWords(
        pattern="([A-Z]\\w+ Card)", facts=("card",)
    )


def test_domains_with_user_tools__describe_every_one_of_them():
    for name in ("telecom", "banking_knowledge", "mock"):
        domain = tau_env.load_domain(name)
        lexicon = domain.definition.user_vocabulary.requests
        tools = {t["function"]["name"] for t in domain.toolbox.tools("user").openai_schemas()}
        assert tools <= set(lexicon.tools), (name, tools - set(lexicon.tools))
        for words in lexicon.tools.values():  # every object a tool acts on is named
            assert set(words.on) <= set(lexicon.objects) | set(lexicon.value_objects.values())
