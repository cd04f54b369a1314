"""Word lists for the built-in airline world: people's names and postal addresses."""

from __future__ import annotations

__all__ = ["CARD_BRANDS", "CITIES", "FIRST_NAMES", "LAST_NAMES", "STREETS"]

FIRST_NAMES = (
    "Ada", "Alma", "Amir", "Anders", "Aria", "Bea", "Bruno", "Carmen", "Cyrus", "Dalia",
    "Dario", "Delia", "Elif", "Emil", "Esme", "Farah", "Felix", "Gemma", "Greta", "Hana",
    "Hugo", "Ines", "Ivo", "Jonas", "Juno", "Kai", "Kenji", "Lara", "Leon", "Lina",
    "Mateo", "Mila", "Nadia", "Nico", "Noor", "Omar", "Oona", "Pablo", "Priya", "Quinn",
    "Rafael", "Rosa", "Sami", "Selma", "Tariq", "Tessa", "Uma", "Vera", "Wren", "Yara",
)  # fmt: skip

LAST_NAMES = (
    "Abe", "Alves", "Berg", "Bose", "Castro", "Dahl", "Diaz", "Eze", "Fox", "Gallo",
    "Haas", "Holm", "Ito", "Jensen", "Kaur", "Keller", "Lund", "Mora", "Nagy", "Novak",
    "Okafor", "Ortiz", "Park", "Quint", "Reyes", "Roth", "Sato", "Silva", "Stone", "Toth",
    "Ueda", "Vance", "Vargas", "Weber", "Wolfe", "Xu", "Yilmaz", "Young", "Zeller", "Zhou",
)  # fmt: skip

STREETS = (
    "Alder Way", "Birch Lane", "Canal Street", "Cedar Court", "Dune Road", "Elm Row",
    "Falcon Drive", "Garden Walk", "Harbor View", "Iris Avenue", "Juniper Path",
    "Lakeside Drive", "Maple Crescent", "North Point", "Orchard Road", "Pine Hollow",
)  # fmt: skip

CITIES = (
    ("Portland", "OR", "972"), ("Boise", "ID", "837"), ("Tucson", "AZ", "857"),
    ("Omaha", "NE", "681"), ("Madison", "WI", "537"), ("Raleigh", "NC", "276"),
    ("Richmond", "VA", "232"), ("Albany", "NY", "122"), ("Austin", "TX", "787"),
    ("Spokane", "WA", "992"), ("Fresno", "CA", "937"), ("Savannah", "GA", "314"),
)  # fmt: skip
"""(city, state, first three digits of the zip code)."""

CARD_BRANDS = ("visa", "mastercard", "amex")
