"""The seeds' product question asked of twelve electronics, answered by a simulated model.

The model learns everything through println: which products are electronics, and for each one
its rating and stock. It checks one to three products a turn (the seed decides, and now and
then it spends a turn looking around), so the facts pile up in earlier turns' output. Under
`full` it sees them all and answers right; a strategy or a `println_limit` that drops the
early prints makes it check products again, run short of turns and guess on the last one.

    ptc-tui experiment sample_traces/stock_survey.py --compress full,coalesced --repeat 10 --out runs
"""

import re

from engine.agent import SubAgent
from engine.lisp import Keyword

# name: (category, rating, units in stock; None: out of stock)
PRODUCTS = {
    "Laptop": ("Electronics", 4.5, 23), "Mouse": ("Electronics", 3.2, None),
    "Monitor": ("Electronics", 4.7, 7), "Keyboard": ("Electronics", 4.1, 0),
    "Webcam": ("Electronics", 4.3, 12), "Headset": ("Electronics", 3.9, 40),
    "Speaker": ("Electronics", 4.6, None), "Router": ("Electronics", 4.2, 5),
    "Tablet": ("Electronics", 4.8, 2), "Charger": ("Electronics", 3.5, 80),
    "Printer": ("Electronics", 4.0, 3), "Drive": ("Electronics", 4.4, 0),
    "Desk": ("Furniture", 4.6, 4), "Chair": ("Furniture", 4.2, 12), "Lamp": ("Home", 4.9, 30),
}


def rating(name: str) -> str:
    """Customer rating of one product."""
    if name not in PRODUCTS:
        return f"No reviews found for {name}."
    return f"{name}: Average rating {PRODUCTS[name][1]}/5"


def stock(name: str) -> str:
    """Warehouse stock of one product."""
    units = PRODUCTS.get(name, (None, None, None))[2]
    return f"{name} - OUT OF STOCK" if units is None else f"{name} - {units} units in stock"


agent = SubAgent(
    mission="Which electronics rated 4 or more are in stock now? Check each with the tools "
            "and return their names, sorted.",
    tools={"rating": rating, "stock": stock},
    data={"products": [{Keyword("name"): n, Keyword("category"): c}
                       for n, (c, _, _) in PRODUCTS.items()]},
    max_turns=12, name="stock-survey",
    description="A simulated model checks 12 products; the facts arrive only by println")

expected = sorted(n for n, (c, r, units) in PRODUCTS.items()
                  if c == "Electronics" and r >= 4 and units)


# --- the simulated model: it reads its request and knows only what the request shows -----------

NAMES = re.compile(r"^electronics: (.+)$", re.M)
RATING = re.compile(r"\b(\w+): Average rating ([\d.]+)/5")
STOCK = re.compile(r"\b(\w+) - (?:(\d+) units in stock|OUT OF STOCK)")


def policy(request: str, rng) -> str:
    names = NAMES.findall(request)
    if not names:
        return reply("I need the list of electronics first.", "(println \"electronics:\" "
                     "(clojure.string/join \", \" (->> data/products "
                     "(filter #(= (:category %) \"Electronics\")) (map :name))))")
    names = names[-1].split(", ")
    ratings = {n: float(r) for n, r in RATING.findall(request)}
    units = {n: int(u or 0) for n, u in STOCK.findall(request)}
    unknown = [n for n in names if n not in ratings or n not in units]
    if not unknown or "FINAL TURN" in request:
        # On the last turn a product it has not seen is a guess.
        answer = sorted(n for n in names if (ratings[n] >= 4 and units[n] > 0 if n not in unknown
                                             else rng.random() < 0.5))
        return reply("I have what I need." if not unknown else "Out of turns: my best guess.",
                     "(return [" + " ".join(f'"{n}"' for n in answer) + "])")
    if rng.random() < 0.2:
        return reply("Let me look around the data first.",
                     "(println \"products:\" (count data/products))\n"
                     "(println \"categories:\" (sort (distinct (map :category data/products))))")
    batch = unknown[:rng.choice((1, 2, 3))]
    return reply(f"Checking {', '.join(batch)}.", "\n".join(
        f'(println (tool/rating "{n}") "|" (tool/stock "{n}"))' for n in batch))


def reply(thought: str, program: str) -> str:
    return f"thinking: {thought}\n```clojure\n{program}\n```"
