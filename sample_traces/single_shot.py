"""One turn (max_turns=1): the program's last expression is the answer, no return needed."""

from engine.agent import SubAgent
from engine.lisp import Keyword

CUSTOMERS = [
    {"id": "C-101", "name": "Ada Lovelace", "region": "EU"},
    {"id": "C-102", "name": "Grace Hopper", "region": "US"},
    {"id": "C-103", "name": "Alan Turing", "region": "EU"},
    {"id": "C-104", "name": "Katherine Johnson", "region": "US"},
    {"id": "C-105", "name": "Edsger Dijkstra", "region": "EU"},
]

INVOICES = {
    "2025-Q4": [
        {"invoice": "INV-9001", "customer": "C-101", "amount": 1250.00, "status": "paid"},
        {"invoice": "INV-9002", "customer": "C-102", "amount": 980.50, "status": "paid"},
        {"invoice": "INV-9003", "customer": "C-103", "amount": 2210.00, "status": "paid"},
        {"invoice": "INV-9004", "customer": "C-101", "amount": 740.25, "status": "paid"},
        {"invoice": "INV-9005", "customer": "C-104", "amount": 3100.00, "status": "void"},
        {"invoice": "INV-9006", "customer": "C-105", "amount": 415.75, "status": "paid"},
        {"invoice": "INV-9007", "customer": "C-102", "amount": 1530.00, "status": "paid"},
        {"invoice": "INV-9008", "customer": "C-104", "amount": 860.00, "status": "paid"},
        {"invoice": "INV-9009", "customer": "C-103", "amount": 95.00, "status": "refunded"},
    ],
}


def list_invoices(quarter: str) -> list[dict]:
    """Every invoice issued in a quarter such as "2025-Q4": invoice id, customer id, amount
    in EUR and status ("paid", "void" or "refunded")."""
    return INVOICES.get(quarter, [])


agent = SubAgent(
    mission="Who were our three biggest customers in 2025-Q4 by paid invoices? Give each "
            "customer's name and paid total, biggest first.",
    tools={"list-invoices": list_invoices},
    data={"customers": [{Keyword(k): v for k, v in c.items()} for c in CUSTOMERS]},
    max_turns=1, name="single-shot",
    description="max_turns=1: one program, its last expression is the answer (no history at all)")

replies = [
    """thinking: One turn only, so I fetch, total the paid invoices per customer, join the names
and let the last expression be the answer.
```clojure
(let [paid   (filter #(= (:status %) "paid") (tool/list-invoices "2025-Q4"))
      totals (->> paid
                  (group-by :customer)
                  (map (fn [[id invs]] [id (reduce + (map :amount invs))])))
      names  (into {} (map (juxt :id :name) data/customers))]
  (->> totals
       (sort-by second >)
       (take 3)
       (mapv (fn [[id total]] {:name (names id) :paid total}))))
```""",
]
