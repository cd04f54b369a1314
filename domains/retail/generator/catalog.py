"""The built-in store's product types: names, option dimensions and price ranges (our own).

The types are data (`catalog.toml`, next to this module), read once at import, in file order:
the generator draws from them in that order, so the order fixes the built-in store.
"""

from __future__ import annotations

from dataclasses import dataclass

from tau_env.data_files import builtin_toml

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


def _read_catalog() -> tuple[ProductSpec, ...]:
    """`catalog.toml`'s product types, in file order."""
    return tuple(
        ProductSpec(
            name=product["name"],
            options=tuple((key, tuple(values)) for key, values in product["options"].items()),
            price=(float(product["price"][0]), float(product["price"][1])),
        )
        for product in builtin_toml(__package__, "catalog.toml")["product"]
    )


CATALOG: tuple[ProductSpec, ...] = _read_catalog()
"""Every product type of the built-in store."""
