"""How a customer says things in other words: the scripted user's phrasebook (plain data).

`REWRITES` are phrase-level: ``(pattern, alternatives)``, the pattern a regex over one
first-person sentence, each alternative a replacement (a backslash and a digit stand for the
pattern's groups). They change how a wish is put ("I want to" -> "I'd like to"), its linking
words ("because" -> "since"), idioms ("told me not to" -> "said I shouldn't") and the
customer's hold on its records ("cancel order #W1" -> "cancel my order #W1"). `SYNONYMS` are
word-level, for variety and to break a copied run. Neither ever replaces what the customer
wants or the things it concerns (cancel, book, exchange, return, swap, change, refund, order,
reservation, bags, mobile data, MMS...), so an agent that reads the wish reads the same one.

Alternatives ending a sentence as a question ("Could you tell me ...") make the sentence end in
``?`` (`paraphrase` sees to it).
"""

from __future__ import annotations

__all__ = ["CONNECTORS", "LINKS", "QUESTION_STARTS", "REWRITES", "SYNONYMS"]

_OWN = r"(?<!\bmy )(?<!\bthe )(?<!\btheir )(?<!\bher )(?<!\bhis )(?<!\bour )(?<!\ba )"
_RECORD_ID = r"(?= #?[A-Z0-9]*[0-9][A-Z0-9]*\b| [A-Z0-9]{6}\b)"

REWRITES: tuple[tuple[str, tuple[str, ...]], ...] = (
    # the wish
    (r"^I want to know\b", ("I'd like to find out", "I'm wondering", "Could you tell me")),
    (r"^I want to\b", ("I'd like to", "I need to", "I'm hoping to", "I'm looking to")),
    (r"^I would like to\b", ("I'd like to", "I want to", "I'm hoping to")),
    (r"^I want\b", ("I'd like", "I would like")),
    (r"^I need to\b", ("I have to", "I've got to", "I really need to")),
    (r"^I also want to\b", ("I'd also like to", "I also need to", "Also, I'd like to")),
    (r"\bI also want\b", ("I'd also like", "I also need")),
    (r"\band I want to\b", ("and I'd like to", "and I need to", "and I'm hoping to")),
    (r"(?<=[\w,] )I want to\b", ("I'd like to", "I need to", "I'm hoping to")),
    (r"\bI have (a|an|two|three|four|some|several|multiple|many|\d+)\b", ("I've got \\1",)),
    (r"\bI just\b", ("I've just", "I only just")),
    (r"\bI (?:do not|don't) remember\b", ("I can't remember", "I forgot")),
    (r"\bI realize that\b", ("I've realised that", "I just noticed that")),
    (r"\bI wonder if\b", ("I'm wondering whether", "I'd like to know if")),
    (r"\bI prefer\b", ("I'd prefer", "I'd rather have")),
    (r"\bthe same\b", ("the exact same", "the very same")),
    (r"\band want to\b", ("and I'd like to", "and would like to", "and I need to")),
    (r"\band want\b", ("and I'd like", "and would like")),
    (r"\bwish to\b", ("would like to", "want to")),
    (r"\band I would rather\b", ("so I'd prefer to", "and I'd prefer to")),
    (r"\bwould rather\b", ("would prefer to", "'d prefer to")),
    (r"\bhow much is left on my\b", ("how much I have left on my", "how much money is left on my")),
    (r"\ba reminder to\b", ("to be reminded to", "something to remind me to")),
    (r"\bwas created for me\b", ("was made for me", "got created for me")),
    (r"^I have a\b", ("I've got a", "There's a")),
    (r"\bis delayed\b", ("has been delayed", "got delayed")),
    (r"^A relative asked me to\b", ("My relative asked me to", "A family member asked me to")),
    (r"\bthis morning\b", ("earlier today", "earlier this morning")),
    (r"\ba notification about\b", ("a notification regarding", "a notification for")),
    (
        r"\bfix it and successfully\b",
        ("fix it so I can successfully", "get it fixed and successfully"),
    ),
    (r"\band absolutely want to get\b", ("and I really need to get", "and I absolutely need")),
    (r"\bstops working\b", ("cuts out", "drops out")),
    (
        r"\band I am upset about it\b",
        ("and I'm really upset about it", "and I'm quite upset about it"),
    ),
    (r"\bwas cancelled\b", ("got cancelled", "was cancelled on me")),
    # links and idioms
    (r"\bbecause\b", ("since", "as")),
    (r"\bwhich I no longer need\b", ("which I don't need anymore", "which I have no use for")),
    (
        r"\bno longer need (it|them|this|the \w+)",
        ("don't need \\1 anymore", "have no use for \\1 now"),
    ),
    (r"\btold (?:me|I) not to\b", ("said I shouldn't", "advised me not to")),
    (r"\b(told|help|helps|asked|let|made|give|gave|tell|sent|allow|allows) I\b", ("\\1 me",)),
    (r"\bI am ill\b", ("I'm sick", "I've fallen ill", "I'm unwell")),
    (r"\bis forecast at\b", ("is expected at", "is predicted at", "is heading for")),
    (r"\bbut fly to\b", ("but go to", "but travel to", "and fly to")),
    (r"\btravel free\b", ("travel for free",)),
    (r"\bfor the rest of the trip\b", ("for the remainder of the trip", "for the rest of my trip")),
    (r"^A passenger's details on\b", ("One passenger's details on", "A passenger's info on")),
    (r"\bmust change\b", ("need to be changed", "have to be changed")),
    (r"\bshould be (?=\d)", ("ought to be ", "is actually ")),
    (r"\bone-way economy trip\b", ("one-way economy flight", "one-way flight in economy")),
    (r"\bfor a group of (\d+) people\b", ("for \\1 people", "for a party of \\1", "for \\1 of us")),
    (r",? paid with a new card\b", (", paying with a new card", " using a new card to pay")),
    (
        r"\bthe seats on my flights of\b",
        ("the seats on my flights in", "my seats on the flights of"),
    ),
    (r"\btwo days later\b", ("by two days", "back by two days")),
    (r"\bget the (\w+(?: \w+)?) back\b", ("get my \\1 back", "have the \\1 refunded")),
    (
        r"\band make the new address\b",
        ("and set the new address as", "and please make the new address"),
    ),
    (r"\breplaced by a new one\b", ("changed to a new one", "updated to a new one")),
    (r"^A parcel arrived damaged\b", ("My parcel arrived damaged", "A package showed up damaged")),
    (r"\bspeak with\b", ("talk to", "speak to")),
    (r"\bdo not have their\b", ("haven't got their", "have no access to their")),
    (r"\bin the to-do service\b", ("in my to-do list", "on my to-do list")),
    (r"\btrack the preparation of\b", ("keep track of preparing", "track my preparation for")),
    (r"\bhas to be\b", ("needs to be", "must be")),
    (r"\bI have just\b", ("I just", "I've only just")),
    (r"\band I have done it\b", ("and I've finished it", "and it's done now")),
    (r"\bwhich I have finished\b", ("which I've completed", "which is finished now")),
    (r"\bending in\b", ("that ends in", "ending with")),
    (r"\bmy order with the\b", ("the order with my", "my order containing the")),
    (r"\bfor the one with\b", ("for the version with", "for one with", "for the one that has")),
    (r"\b(swap|exchange|return|cancel|modify|replace|upgrade|downgrade) the\b", ("\\1 my",)),
    (r"^In (?:my )?order\b", ("For my order", "On my order")),
    (r"^From (?:my )?order\b", ("Out of my order", "For my order")),
    (r"\bI recently\b", ("I just", "Not long ago I")),
    (r"\brecently\b", ("lately",)),
    (
        r"\bI am contacting (?:customer service )?to\b",
        ("I'm calling to", "I'm getting in touch to"),
    ),
    (r"\bmy delayed flight\b", ("my flight that got delayed", "my flight, which was delayed")),
    (r"\breceived\b", ("got",)),
    # phones
    (r"^For a few hours\b", ("For the last few hours", "For a couple of hours now")),
    (r"^Since a few hours ago\b", ("For the past few hours", "For a few hours now")),
    (r"\bwill not send\b", ("isn't sending", "refuses to send", "just won't send")),
    (r"\bmy messaging app\b", ("the messaging app on my phone", "my texting app")),
    (r"^The mobile data on my phone\b", ("My phone's mobile data", "Mobile data on my phone")),
    (r"\bis unusable\b", ("is useless", "is basically unusable", "doesn't work at all")),
    (
        r"\beither never load or crawl\b",
        ("don't load at all or take forever", "never load, or they crawl"),
    ),
    (r"\bI need it fast again\b", ("I need it to be fast again", "I want it quick again")),
    (
        r"\bonly an (\S+) speed test will do\b",
        ("only an \\1 speed test is good enough", "I'll only accept an \\1 speed test"),
    ),
    (r"\bis not acceptable\b", ("isn't good enough", "won't do")),
    (r"\bwhere I am\b", ("here", "where I am right now")),
    (r"\bhas shown\b", ("has been showing", "has said", "keeps showing")),
    (r"\bnothing loads\b", ("nothing will load", "nothing works")),
    (r"\bcan neither (\w+) nor (\w+)", ("can't \\1 or \\2", "can't \\1 and can't \\2")),
    (r"^There is no\b", ("I don't have any", "There isn't any")),
    (r"\bis now\b", ("is currently",)),
    (r"\bone-way trip\b", ("one-way flight", "one-way ticket")),
    (r"\bround trip\b", ("round-trip flight", "return flight", "round-trip ticket")),
    (r"\bI am\b(?=\s+\w)", ("I'm",)),
    (_OWN + r"\b(reservation|order)" + _RECORD_ID, ("my \\1",)),
)
"""(pattern, alternatives): phrase-level rewrites; one alternative is chosen per sentence."""

QUESTION_STARTS = ("Could you tell me", "Can you tell me", "Could you", "Can you")
"""Alternatives that turn a statement into a question (its end becomes ``?``)."""

SYNONYMS: dict[str, tuple[str, ...]] = {
    "acceptable": ("good enough", "okay"),
    "accident": ("mistake",),
    "anymore": ("any longer",),
    "arrived": ("came", "showed up"),
    "asked": ("wanted",),
    "bought": ("purchased",),
    "cheaper": ("less expensive",),
    "correct": ("right",),
    "crawl": ("are painfully slow", "barely move"),
    "currently": ("right now", "at the moment"),
    "damaged": ("broken",),
    "definitely": ("certainly", "for sure"),
    "exactly": ("precisely",),
    "fast": ("quick",),
    "immediately": ("right away",),
    "important": ("crucial",),
    "load": ("open",),
    "loads": ("opens", "works"),
    "meal": ("food",),
    "mistake": ("accident",),
    "moved": ("relocated",),
    "moving": ("relocating",),
    "pages": ("websites", "web pages"),
    "placed": ("made",),
    "planning": ("intending",),
    "problem": ("issue",),
    "properly": ("right", "correctly"),
    "quickly": ("fast",),
    "seems": ("looks",),
    "several": ("a few", "multiple"),
    "shown": ("displayed", "said"),
    "slow": ("sluggish",),
    "sometimes": ("at times",),
    "soon": ("shortly",),
    "sure": ("certain",),
    "think": ("believe",),
    "trip": ("journey",),
    "trouble": ("hassle", "inconvenience"),
    "unable": ("not able",),
    "uncomfortable": ("not comfortable",),
    "unusable": ("useless",),
    "upcoming": ("next", "coming"),
    "urgent": ("pressing",),
    "very": ("really", "super"),
    "wonder": ("am wondering",),
    "working": ("functioning",),
    "worried": ("concerned",),
    "wrong": ("incorrect",),
}
"""Everyday words and what a customer may say instead (never a word of the wish itself)."""

CONNECTORS = ("Also,", "And", "Plus,", "On top of that,")
"""Words a sentence may start with when a copied run crosses into it from the one before."""

LINKS = frozenset(
    (
        *("and", "but", "or", "so", "because", "since", "to", "for", "from", "with", "on"),
        *("in", "at", "of", "the", "a", "an", "that", "which", "who", "when", "where", "if"),
        *("is", "are", "was", "will", "would", "can", "could"),
    )
)
"""Words a filler reads naturally before ("..., you know, and then...")."""
