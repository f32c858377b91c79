"""Thousands of records: 5,000 orders, a 400-item catalog and an 18 KB refund log, in 4 turns."""

from engine.agent import SubAgent

CATEGORIES = ["Kitchen", "Garden", "Office", "Toys", "Outdoor", "Lighting"]
ADJECTIVES = ["Compact", "Deluxe", "Classic", "Eco", "Smart", "Heavy-duty", "Mini", "Pro"]
NOUNS = {
    "Kitchen": ["Kettle", "Blender", "Pan", "Knife Set"],
    "Garden": ["Hose", "Shears", "Planter", "Rake"],
    "Office": ["Chair", "Desk Lamp", "Stapler", "Monitor Arm"],
    "Toys": ["Puzzle", "Robot", "Kite", "Blocks"],
    "Outdoor": ["Tent", "Cooler", "Lantern", "Hammock"],
    "Lighting": ["Bulb Pack", "Floor Lamp", "LED Strip", "Spotlight"],
}
REFUND_REASONS = ["damaged", "late", "wrong item", "changed mind"]
N_SKUS, N_ORDERS = 400, 5000


def _product(j: int) -> dict:
    category = CATEGORIES[j % len(CATEGORIES)]
    noun = NOUNS[category][(j // len(CATEGORIES)) % 4]
    return {"name": f"{ADJECTIVES[(j * 5) % len(ADJECTIVES)]} {noun}", "category": category,
            "price_eur": 5 + (j * 37) % 195}


CATALOG = {f"SKU-{1000 + j}": _product(j) for j in range(N_SKUS)}
SKUS = list(CATALOG)


def _order(i: int) -> dict:
    return {"id": f"O-{100000 + i}",
            "date": f"2025-{1 + i * 12 // N_ORDERS:02d}-{1 + (i * 13) % 28:02d}",
            "sku": SKUS[(i * 7919 + i // 3) % N_SKUS],
            "qty": 1 + (i * 31) % 4,
            "status": "cancelled" if i % 47 == 0 else "completed"}


ORDERS = [_order(i) for i in range(N_ORDERS)]


def _refund_log() -> str:
    lines = ["order_id,date,amount_eur,reason"]
    for i, o in enumerate(ORDERS):
        if i % 9 == 4 and o["status"] == "completed":
            price = CATALOG[o["sku"]]["price_eur"]
            amount = price * o["qty"] if i % 2 else price
            lines.append(f"{o['id']},{o['date']},{amount},{REFUND_REASONS[i % 4]}")
    return "\n".join(lines)


def list_orders(year: int) -> list[dict]:
    """Every order placed in `year`: :id, :date (YYYY-MM-DD), :sku, :qty and :status
    ("completed" or "cancelled"). Prices are in the catalog."""
    return ORDERS if year == 2025 else []


def get_catalog() -> dict:
    """The product catalog: a map from SKU ("SKU-1000") to {:name :category :price_eur}."""
    return CATALOG


def export_refunds(year: int) -> str:
    """The refund log of `year` as CSV text, one refund per line, with a header:
    order_id,date,amount_eur,reason."""
    return _refund_log() if year == 2025 else "order_id,date,amount_eur,reason"


agent = SubAgent(
    mission="Which product category earned the most net revenue in 2025 (completed orders at "
            "catalog price, minus refunds), and what share of all net revenue was that? Return "
            "{:category :net_eur :share} with the share as a percentage.",
    tools={"list-orders": list_orders, "get-catalog": get_catalog,
           "export-refunds": export_refunds},
    max_turns=6, compress_history=True, name="large-data",
    description="5,000 orders, a 400-SKU catalog map, an 18 KB CSV string: samples and cuts matter")

replies = [
    """thinking: Fetch the orders and the catalog and look at their shape before computing.
```clojure
(def orders (tool/list-orders 2025))
(def catalog (tool/get-catalog))
(println "orders:" (count orders) "first:" (first orders))
(println "statuses:" (frequencies (map :status orders)))
(println "catalog entries:" (count catalog) "e.g." (first catalog))
```""",
    """thinking: 5000 orders, 107 cancelled; the catalog maps SKU to price and category. The
refund log is CSV with a header (order_id,date,amount_eur,reason): parse it into a map from
order id to refunded amount, adding up an order's refunds if it has several.
```clojure
(def refund-csv (tool/export-refunds 2025))
(def refunds "order id -> EUR refunded"
  (->> (rest (str/split-lines refund-csv))
       (map #(str/split % #","))
       (reduce (fn [m [id _ amount _]] (update m id (fnil + 0) (parse-long amount))) {})))
```""",
    """thinking: The refunds parsed: 544 orders, amounts as integers. Now gross revenue per
category from completed orders, minus each order's refund, and print the ranking.
```clojure
(def net-by-category
  (reduce (fn [acc o]
            (let [{:keys [category price_eur]} (get catalog (:sku o))
                  amount (- (* price_eur (:qty o)) (get refunds (:id o) 0))]
              (update acc category (fnil + 0) amount)))
          {}
          (filter #(= (:status %) "completed") orders)))
(def total-net (reduce + (vals net-by-category)))
(doseq [[category net] (sort-by val > net-by-category)]
  (println category net (format "%.1f%%" (* 100.0 (/ net total-net)))))
```""",
    """thinking: The top category and its share are printed above; return them.
```clojure
(let [[category net] (first (sort-by val > net-by-category))]
  (return {:category category
           :net_eur net
           :share (/ (math/round (* 1000.0 (/ net total-net))) 10.0)}))
```""",
]
