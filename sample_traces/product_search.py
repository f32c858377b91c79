"""The seeds' own example: which electronics are well reviewed and in stock, in 3 turns."""

from engine.agent import SubAgent
from engine.lisp import Keyword

PRODUCTS = [
    {"name": "Laptop", "price": 1200, "category": "Electronics"},
    {"name": "Mouse", "price": 25, "category": "Electronics"},
    {"name": "Monitor", "price": 300, "category": "Electronics"},
    {"name": "Keyboard", "price": 75, "category": "Electronics"},
    {"name": "Desk", "price": 450, "category": "Furniture"},
    {"name": "Chair", "price": 200, "category": "Furniture"},
    {"name": "Lamp", "price": 40, "category": "Home"},
]

REVIEWS = {
    "Electronics": ("Customer Review Summary for Electronics:\n"
                    "- Laptop: Average rating 4.5/5 (128 reviews). Praised for battery life.\n"
                    "- Mouse: Average rating 3.2/5 (54 reviews). Scroll wheel fails early.\n"
                    "- Monitor: Average rating 4.7/5 (89 reviews). Sharp, good stand.\n"
                    "- Keyboard: Average rating 4.1/5 (61 reviews). Quiet keys."),
}


def search_reviews(category: str) -> str:
    """Customer review summary for a product category."""
    return REVIEWS.get(category, f"No reviews found for {category}.")


def get_inventory() -> str:
    """Warehouse inventory report for all products."""
    return ("Warehouse Inventory Report (as of 09:00):\n"
            "Laptop - 23 units in stock\nMouse - OUT OF STOCK\nMonitor - 7 units in stock\n"
            "Keyboard - 0 units (restock Friday)\nDesk - 4 units in stock\n"
            "Chair - 12 units in stock\nLamp - 30 units in stock")


agent = SubAgent(
    mission="Find well-reviewed products in stock: electronics rated 4 or more that the "
            "warehouse has now. Return their names.",
    tools={"search-reviews": search_reviews, "get-inventory": get_inventory},
    # keyword keys, as the seeds' samples show them ({:name "Laptop" ...})
    data={"products": [{Keyword(k): v for k, v in p.items()} for p in PRODUCTS]},
    max_turns=5, compress_history=True, name="product-search",
    description="The seeds' example: well-reviewed electronics in stock, 3 turns with println")

replies = [
    """thinking: I need the electronics, their reviews and the inventory. Let me fetch and look.
```clojure
(def electronics (filter #(= (:category %) "Electronics") data/products))
(def reviews (tool/search-reviews "Electronics"))
(def inventory (tool/get-inventory))
(println "Reviews:" reviews)
(println "Inventory:" inventory)
```""",
    """thinking: Laptop 4.5, Monitor 4.7 and Keyboard 4.1 are rated 4+; Mouse is 3.2.
Inventory: Laptop 23, Monitor 7, Keyboard 0. Let me parse the ratings to be sure.
```clojure
(def ratings
  (into {} (for [[_ name rating] (re-seq #"- (\\w+): Average rating ([\\d.]+)" reviews)]
             [name (parse-double rating)])))
(def well-reviewed (set (keep (fn [[name r]] (when (>= r 4) name)) ratings)))
(println "ratings:" ratings)
(println "well reviewed:" (sort well-reviewed))
```""",
    """thinking: Keyboard has 0 units, so only Laptop and Monitor are in stock.
```clojure
(def in-stock? (fn [name] (boolean (re-find (re-pattern (str name " - \\\\d+ units in stock")) inventory))))
(return (->> electronics (map :name) (filter well-reviewed) (filter in-stock?) vec))
```""",
]
