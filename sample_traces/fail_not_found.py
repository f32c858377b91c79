"""The data lacks what the mission asks: 3 turns of searching, then a not-found fail."""

from engine.agent import SubAgent

TICKETS = [
    {"id": "T-4410", "customer": "m.okafor@example.com", "order": "A-7713", "agent": "Priya",
     "subject": "Refund for damaged kettle", "status": "closed",
     "body": "Kettle arrived with a cracked lid. Refund of 39.90 issued to the original card."},
    {"id": "T-4417", "customer": "j.berg@example.com", "order": "A-7702", "agent": "Tomás",
     "subject": "Where is my parcel?", "status": "closed",
     "body": "Tracking stuck at the depot for 6 days. Carrier confirmed delivery on day 7."},
    {"id": "T-4423", "customer": "l.chen@example.com", "order": "A-7735", "agent": "Priya",
     "subject": "Refund request: wrong colour", "status": "open",
     "body": "Ordered the blue toaster, received red. Customer wants a refund, not an exchange."},
    {"id": "T-4431", "customer": "s.novak@example.com", "order": "A-7740", "agent": "Dana",
     "subject": "Invoice address change", "status": "closed",
     "body": "Updated the billing address on the invoice and re-sent it."},
    {"id": "T-4436", "customer": "r.alvarez@example.com", "order": "A-7698", "agent": "Tomás",
     "subject": "Partial refund for late delivery", "status": "closed",
     "body": "Delivered 4 days late. Goodwill refund of 10.00 issued as store credit."},
]

ORDERS = {
    "A-7698": {"order": "A-7698", "customer": "r.alvarez@example.com", "total": 84.00,
               "placed": "2025-11-02", "status": "delivered"},
    "A-7702": {"order": "A-7702", "customer": "j.berg@example.com", "total": 129.50,
               "placed": "2025-11-04", "status": "delivered"},
    "A-7713": {"order": "A-7713", "customer": "m.okafor@example.com", "total": 39.90,
               "placed": "2025-11-07", "status": "refunded"},
    "A-7735": {"order": "A-7735", "customer": "l.chen@example.com", "total": 54.00,
               "placed": "2025-11-12", "status": "delivered"},
    "A-7740": {"order": "A-7740", "customer": "s.novak@example.com", "total": 310.00,
               "placed": "2025-11-13", "status": "delivered"},
}


def search_tickets(query: str, limit: int = 10) -> list[dict]:
    """Support tickets whose subject, body or order number contains `query` (case-insensitive),
    newest first."""
    q = query.lower()
    hits = [t for t in TICKETS
            if q in t["subject"].lower() or q in t["body"].lower() or q in t["order"].lower()]
    return list(reversed(hits))[:limit]


def get_order(order_id: str) -> dict | None:
    """One order by its number ("A-7713"), or nil when there is no such order."""
    return ORDERS.get(order_id)


agent = SubAgent(
    mission="A customer says they were refunded for order A-7731. Find the support ticket "
            "about that refund and return its id and the agent who handled it.",
    tools={"search-tickets": search_tickets, "get-order": get_order},
    max_turns=5, name="fail-not-found",
    description="The order asked about does not exist: 3 turns of searching, then fail not-found")

replies = [
    """thinking: Search the tickets for the order number directly and look the order up.
```clojure
(def direct (tool/search-tickets "A-7731"))
(def order (tool/get-order "A-7731"))
(println "tickets mentioning A-7731:" (count direct))
(println "order A-7731:" order)
```""",
    """thinking: No ticket and no order A-7731. Maybe the number is mistyped. Let me list every
refund ticket with its order, and check the orders with similar numbers.
```clojure
(def refund-tickets (tool/search-tickets {:query "refund" :limit 20}))
(doseq [t refund-tickets]
  (println (:id t) (:order t) (:agent t) "-" (:subject t)))
(def near-misses
  (->> ["A-7713" "A-7730" "A-7732" "A-7371" "A-7731"]
       (keep #(tool/get-order %))
       (map #(select-keys % [:order :customer :status]))))
(println "orders with similar numbers:" near-misses)
```""",
    """thinking: A-7731 does not exist, and no ticket mentions it. The closest is A-7713, which was
refunded (ticket T-4410, Priya), but that is a different order and I cannot confirm it is the
customer's. Guessing would be wrong, so I fail and say what I found.
```clojure
(fail {:reason "not-found"
       :message (str "No order A-7731 and no ticket mentions it. Refund tickets: "
                     (str/join ", " (map #(str (:id %) " (" (:order %) ")") refund-tickets))
                     ". Did the customer mean A-7713 (refunded, ticket T-4410, agent Priya)?")})
```""",
]
