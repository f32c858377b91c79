"""A refund hunt that hits a parse error, a typo, a tool error and a prose reply, and recovers."""

from engine.agent import SubAgent

CUSTOMERS = {
    "C-1042": {"id": "C-1042", "name": "Dana Whitfield", "email": "dana.w@example.com",
               "payment-method": "visa-4417", "tier": "gold"},
}

ORDERS = {
    "C-1042": [
        {"id": "A-5502", "date": "2026-03-02", "total": 42.50, "status": "delivered"},
        {"id": "A-5531", "date": "2026-03-09", "total": 89.90, "status": "delivered"},
        {"id": "A-5560", "date": "2026-03-14", "total": 15.00, "status": "shipped"},
    ],
}

PAYMENTS = {
    "A-5502": [{"charge-id": "ch_7731", "order-id": "A-5502", "amount": 42.50,
                "at": "2026-03-02T10:14:03Z"}],
    "A-5531": [{"charge-id": "ch_7810", "order-id": "A-5531", "amount": 89.90,
                "at": "2026-03-09T18:41:27Z"},
               {"charge-id": "ch_7811", "order-id": "A-5531", "amount": 89.90,
                "at": "2026-03-09T18:41:29Z"}],
    "A-5560": [{"charge-id": "ch_7902", "order-id": "A-5560", "amount": 15.00,
                "at": "2026-03-14T08:02:55Z"}],
}


def get_customer(customer_id: str) -> dict:
    """The customer's profile: name, email, payment method and tier."""
    if customer_id not in CUSTOMERS:
        raise ValueError(f"customer not found: {customer_id!r}")
    return CUSTOMERS[customer_id]


def get_orders(customer_id: str) -> list:
    """The customer's orders, oldest first: id, date, total and status."""
    if customer_id not in ORDERS:
        raise ValueError(f"customer not found: {customer_id!r}")
    return ORDERS[customer_id]


def get_payments(order_id: str) -> list:
    """The card charges made for one order: charge-id, order-id, amount and timestamp."""
    return PAYMENTS.get(order_id, [])


agent = SubAgent(
    mission="Customer C-1042 says they were charged twice last month. Find the duplicate "
            "charge and return the order id, the charge id to refund, the amount and the "
            "customer's email for the confirmation.",
    tools={"get-customer": get_customer, "get-orders": get_orders,
           "get-payments": get_payments},
    max_turns=10, compress_history=True, name="error-recovery",
    description="Parse error, unbound symbol, tool error and a reply without code, each recovered")

replies = [
    """thinking: First I'll pull the customer's orders and look at them.
```clojure
(def orders (tool/get-orders "C-1042"))
(println "orders:" (count orders)
(doseq [o orders]
  (println (:id o) (:date o) (:total o) (:status o)))
```""",
    """thinking: I left the first println unclosed. Fixing the paren.
```clojure
(def orders (tool/get-orders "C-1042"))
(println "orders:" (count orders))
(doseq [o orders]
  (println (:id o) (:date o) (:total o) (:status o)))
```""",
    """thinking: Three orders. Now the charges for each; a duplicate would be two charges with
the same order and amount.
```clojure
(def payments (vec (mapcat #(tool/get-payments (:id %)) orders)))
(def dupes (->> payment
                (group-by (juxt :order-id :amount))
                vals
                (filter #(> (count %) 1))))
(println "charges:" (count payments))
(println "duplicates:" dupes)
```""",
    """thinking: Typo: `payment` instead of `payments`.
```clojure
(def payments (vec (mapcat #(tool/get-payments (:id %)) orders)))
(def dupes (->> payments
                (group-by (juxt :order-id :amount))
                vals
                (filter #(> (count %) 1))))
(println "charges:" (count payments))
(println "duplicates:" dupes)
```""",
    """thinking: A-5531 was charged 89.90 twice, two seconds apart (ch_7810 and ch_7811). The
second one is the duplicate. I still need the customer's email.
```clojure
(def customer (tool/get-customer "1042"))
(println "customer:" (:name customer) (:email customer))
```""",
    """thinking: The id needs its "C-" prefix, as in the mission.
```clojure
(def customer (tool/get-customer "C-1042"))
(println "customer:" (:name customer) (:email customer))
```""",
    """thinking: I have everything I need.

The duplicate charge is ch_7811 on order A-5531: 89.90 charged a second time two seconds
after ch_7810. Refund ch_7811 (89.90) and send the confirmation to dana.w@example.com.""",
    """thinking: I answered in prose instead of code. Returning the result properly.
```clojure
(let [[kept extra] (sort-by :at (first dupes))]
  (return {:order-id (:order-id extra)
           :refund-charge-id (:charge-id extra)
           :kept-charge-id (:charge-id kept)
           :amount (:amount extra)
           :email (:email customer)}))
```""",
]
