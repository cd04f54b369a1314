"""The built-in store's product types: names, option dimensions and price ranges (our own)."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["CATALOG", "ProductSpec"]


@dataclass(frozen=True)
class ProductSpec:
    """A product type the generator turns into a product with variants.

    Attributes:
        name: Product type name.
        options: Option name -> possible values; variants draw combinations of these.
        price: Lowest and highest base price in dollars.
    """

    name: str
    options: tuple[tuple[str, tuple[str, ...]], ...]
    price: tuple[float, float]


def _spec(name: str, price: tuple[float, float], **options: tuple[str, ...]) -> ProductSpec:
    return ProductSpec(
        name, tuple((key.replace("_", " "), values) for key, values in options.items()), price
    )


CATALOG: tuple[ProductSpec, ...] = (
    _spec(
        "Desk Lamp",
        (24.0, 140.0),
        color=("black", "white", "brass", "silver"),
        bulb=("LED", "halogen"),
        base=("round", "square"),
    ),
    _spec(
        "Rain Jacket",
        (60.0, 220.0),
        size=("S", "M", "L", "XL"),
        color=("navy", "olive", "red", "yellow"),
        hood=("fixed", "packable"),
    ),
    _spec(
        "Travel Mug",
        (12.0, 48.0),
        capacity=("350ml", "500ml", "750ml"),
        material=("steel", "ceramic"),
        color=("black", "mint", "coral"),
    ),
    _spec(
        "Trail Shoes",
        (70.0, 190.0),
        size=("7", "8", "9", "10", "11"),
        color=("grey", "blue", "orange"),
        sole=("rubber", "vibram"),
    ),
    _spec(
        "Noise-Cancelling Headphones",
        (90.0, 420.0),
        color=("black", "silver", "midnight blue"),
        connection=("wired", "bluetooth"),
        fit=("over-ear", "on-ear"),
    ),
    _spec(
        "Yoga Mat",
        (18.0, 95.0),
        thickness=("4mm", "6mm", "8mm"),
        material=("PVC", "natural rubber", "cork"),
        color=("purple", "green", "grey"),
    ),
    _spec(
        "Electric Kettle",
        (25.0, 130.0),
        capacity=("1L", "1.5L", "1.7L"),
        material=("glass", "steel", "plastic"),
        temperature_control=("yes", "no"),
    ),
    _spec(
        "Backpack",
        (35.0, 180.0),
        volume=("18L", "25L", "32L"),
        color=("black", "sand", "forest green"),
        laptop_sleeve=("yes", "no"),
    ),
    _spec(
        "Mechanical Keyboard",
        (55.0, 260.0),
        switch=("linear", "tactile", "clicky"),
        layout=("full size", "tenkeyless", "compact"),
        backlight=("none", "white", "RGB"),
    ),
    _spec(
        "Wireless Mouse",
        (15.0, 110.0),
        color=("black", "white", "graphite"),
        grip=("palm", "claw"),
        battery=("AA", "rechargeable"),
    ),
    _spec(
        "Blender",
        (40.0, 310.0),
        power=("600W", "900W", "1200W"),
        jar=("glass", "plastic"),
        color=("white", "black", "red"),
    ),
    _spec(
        "Sleeping Bag",
        (45.0, 260.0),
        temperature_rating=("0C", "-7C", "5C"),
        fill=("down", "synthetic"),
        length=("regular", "long"),
    ),
    _spec(
        "Sunglasses",
        (20.0, 240.0),
        frame=("black", "tortoise", "gold"),
        lens=("polarized", "standard"),
        shape=("round", "square", "aviator"),
    ),
    _spec(
        "Water Filter Pitcher",
        (18.0, 70.0),
        capacity=("1.5L", "2.4L", "3.5L"),
        color=("clear", "blue"),
        filter_type=("carbon", "ceramic"),
    ),
    _spec(
        "Smart Speaker",
        (30.0, 330.0),
        color=("charcoal", "chalk", "sand"),
        size=("mini", "standard", "max"),
        assistant=("voice", "none"),
    ),
    _spec(
        "Camping Tent",
        (80.0, 520.0),
        capacity=("2-person", "4-person", "6-person"),
        season=("3-season", "4-season"),
        color=("green", "orange"),
    ),
    _spec(
        "Office Chair",
        (110.0, 640.0),
        material=("mesh", "fabric", "leather"),
        color=("black", "grey", "blue"),
        armrest=("fixed", "adjustable"),
    ),
    _spec(
        "Cookware Set",
        (60.0, 480.0),
        pieces=("5", "8", "12"),
        material=("stainless steel", "cast iron", "nonstick"),
        induction=("yes", "no"),
    ),
    _spec(
        "Fitness Tracker",
        (35.0, 260.0),
        band=("silicone", "leather", "metal"),
        color=("black", "rose", "teal"),
        gps=("yes", "no"),
    ),
    _spec(
        "Bath Towel Set",
        (25.0, 120.0),
        pieces=("2", "4", "6"),
        color=("white", "charcoal", "sage"),
        material=("cotton", "bamboo"),
    ),
    _spec(
        "Portable Charger",
        (15.0, 95.0),
        capacity=("5000mAh", "10000mAh", "20000mAh"),
        color=("black", "white"),
        ports=("1", "2", "3"),
    ),
    _spec(
        "Bookshelf",
        (70.0, 390.0),
        height=("3 shelves", "5 shelves"),
        finish=("oak", "walnut", "white"),
        width=("narrow", "wide"),
    ),
    _spec(
        "Coffee Grinder",
        (20.0, 250.0),
        type=("blade", "burr"),
        capacity=("50g", "150g", "250g"),
        color=("black", "steel"),
    ),
    _spec(
        "Garden Hose",
        (22.0, 110.0),
        length=("15m", "25m", "40m"),
        material=("rubber", "vinyl"),
        color=("green", "black"),
    ),
)
"""Every product type of the built-in store."""
