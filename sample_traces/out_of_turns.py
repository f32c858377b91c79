"""The model pages through results one page a turn, never returns, and runs out of its 4 turns."""

from engine.agent import SubAgent

CARRIERS = ["SK", "TP", "DY", "LH", "KL", "AF", "IB"]
VIA = {"LH": "FRA", "KL": "AMS", "AF": "CDG", "IB": "MAD"}
PAGE_SIZE = 5


def _flight(i: int) -> dict:
    carrier = CARRIERS[i % len(CARRIERS)]
    stops = [] if carrier in ("SK", "TP", "DY") and i % 3 else ([VIA[carrier]] if carrier in VIA
                                                                  else ["CPH", "FRA"])
    return {"flight": f"{carrier}{400 + (i * 37) % 500}",
            "departs": f"{6 + (i * 5) % 16:02d}:{(i * 25) % 60:02d}",
            "stops": stops,
            "price_eur": 180 + (i * 53) % 260}


FLIGHTS = [_flight(i) for i in range(34)]


def search_flights(origin: str, destination: str, date: str, page: int = 1) -> dict:
    """Flights from `origin` to `destination` (IATA codes) on `date` (YYYY-MM-DD), five per
    page: {:flights [...] :page n :pages total}. Each flight has :flight, :departs, :stops
    (the airports it stops at) and :price_eur."""
    if (origin, destination, date) != ("OSL", "LIS", "2026-03-14"):
        return {"flights": [], "page": page, "pages": 0}
    pages = -(-len(FLIGHTS) // PAGE_SIZE)
    start = (page - 1) * PAGE_SIZE
    return {"flights": FLIGHTS[start:start + PAGE_SIZE], "page": page, "pages": pages}


agent = SubAgent(
    mission="Find the cheapest flight from Oslo (OSL) to Lisbon (LIS) on 2026-03-14 with at "
            "most one stop. Return its flight number and price.",
    tools={"search-flights": search_flights},
    max_turns=4, compress_history=True, name="out-of-turns",
    description="Never returns: pages through flights one page a turn until its 4 turns run out")

replies = [
    """thinking: Search the flights and look at what comes back.
```clojure
(def p1 (tool/search-flights "OSL" "LIS" "2026-03-14"))
(println "pages:" (:pages p1))
(doseq [f (:flights p1)]
  (println (:flight f) (:departs f) "stops:" (count (:stops f)) "EUR" (:price_eur f)))
```""",
    """thinking: There are 7 pages. Let me look at page 2 before deciding.
```clojure
(def p2 (tool/search-flights "OSL" "LIS" "2026-03-14" 2))
(doseq [f (:flights p2)]
  (println (:flight f) (:departs f) "stops:" (count (:stops f)) "EUR" (:price_eur f)))
```""",
    """thinking: Page 2 had cheaper ones. Prices are not sorted, so I need to keep going: page 3.
```clojure
(def p3 (tool/search-flights "OSL" "LIS" "2026-03-14" 3))
(doseq [f (:flights p3)]
  (println (:flight f) (:departs f) "stops:" (count (:stops f)) "EUR" (:price_eur f)))
(def best-so-far
  (->> (concat (:flights p1) (:flights p2) (:flights p3))
       (filter #(<= (count (:stops %)) 1))
       (sort-by :price_eur)
       first))
(println "best so far:" best-so-far)
```""",
    """thinking: Best so far is from the first three pages, but pages 4 to 7 may hold a cheaper
one. Let me check page 4 before answering.
```clojure
(def p4 (tool/search-flights "OSL" "LIS" "2026-03-14" 4))
(doseq [f (:flights p4)]
  (println (:flight f) (:departs f) "stops:" (count (:stops f)) "EUR" (:price_eur f)))
```""",
]
