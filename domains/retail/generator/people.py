"""Name, street and city pools for the built-in customers (invented, no real people)."""

from __future__ import annotations

__all__ = ["CARD_BRANDS", "CITIES", "FIRST_NAMES", "LAST_NAMES", "STREETS"]

FIRST_NAMES: tuple[str, ...] = (
    "Ada", "Bruno", "Celia", "Dmitri", "Elena", "Farid", "Greta", "Hugo", "Ines", "Jonah",
    "Keiko", "Lars", "Mina", "Nico", "Olga", "Pablo", "Quinn", "Rosa", "Sanjay", "Tessa",
    "Umar", "Vera", "Wendell", "Ximena", "Yusra", "Zane", "Amara", "Basil", "Clara", "Dario",
    "Esme", "Felix", "Gwen", "Hamid", "Iris", "Jasper", "Kira", "Leon", "Maya", "Nadia",
)  # fmt: skip

LAST_NAMES: tuple[str, ...] = (
    "Abbott", "Banerjee", "Castillo", "Dalton", "Eriksen", "Fontaine", "Gallo", "Hartley",
    "Ibarra", "Jensen", "Kowalski", "Lindqvist", "Moreau", "Nakamura", "Okafor", "Petrov",
    "Quintero", "Romano", "Sato", "Thornton", "Underwood", "Valdez", "Whitaker", "Yilmaz",
    "Zamora", "Ashby", "Brennan", "Carver", "Delgado", "Ellison",
)  # fmt: skip

STREETS: tuple[str, ...] = (
    "Alder Lane", "Birch Road", "Cedar Court", "Dogwood Drive", "Elm Street", "Foxglove Way",
    "Granite Avenue", "Harbor View", "Ivy Terrace", "Juniper Place", "Kestrel Street",
    "Lakeside Drive", "Maple Row", "Northgate Road", "Orchard Lane", "Pine Hollow",
    "Quarry Street", "Riverbend Road", "Sycamore Avenue", "Timber Lane",
)  # fmt: skip

CITIES: tuple[tuple[str, str, str], ...] = (
    ("Portland", "OR", "972"),
    ("Austin", "TX", "787"),
    ("Madison", "WI", "537"),
    ("Raleigh", "NC", "276"),
    ("Boise", "ID", "837"),
    ("Tucson", "AZ", "857"),
    ("Albany", "NY", "122"),
    ("Savannah", "GA", "314"),
    ("Spokane", "WA", "992"),
    ("Omaha", "NE", "681"),
    ("Burlington", "VT", "054"),
    ("Santa Fe", "NM", "875"),
)
"""City, state code and the first three digits of its zip codes."""

CARD_BRANDS: tuple[str, ...] = ("visa", "mastercard", "amex", "discover")
