"""The data and tools every conformance case can use (`data/products`, `tool/echo`...)."""

from __future__ import annotations

PRODUCTS = [
    {"id": 1, "name": "Laptop", "category": "electronics", "price": 999.0, "stock": 5},
    {"id": 2, "name": "Phone", "category": "electronics", "price": 599.0, "stock": 0},
    {"id": 3, "name": "Desk", "category": "furniture", "price": 250.0, "stock": 12},
    {"id": 4, "name": "Chair", "category": "furniture", "price": 120.0, "stock": 30},
    {"id": 5, "name": "Headphones", "category": "electronics", "price": 199.0, "stock": 8},
]

DATA = {
    "products": PRODUCTS,
    "count": 42,
    "user": {"name": "Ada", "email": "ada@example.com", "tags": ["admin", "dev"]},
    "empty": [],
    "nothing": None,
}


def echo(*args, **kwargs):
    """Returns what it was given: positional arguments as a list, keyword arguments as a map."""
    if kwargs:
        return kwargs
    return list(args)


def search(query: str, limit: int = 3):
    """Products whose name contains the query (case-insensitive), at most `limit` of them."""
    found = [p for p in PRODUCTS if query.lower() in p["name"].lower()]
    return found[:limit]


def boom(*args):
    raise RuntimeError("the tool broke")


def get_inventory(product_id: int):
    """Stock of one product."""
    for p in PRODUCTS:
        if p["id"] == product_id:
            return {"id": product_id, "stock": p["stock"]}
    raise KeyError(f"no product {product_id}")


def return_object():
    return object()


TOOLS = {"echo": echo, "search": search, "boom": boom, "get-inventory": get_inventory,
         "return-object": return_object}
