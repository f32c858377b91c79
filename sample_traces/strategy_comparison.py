"""An 11-turn expense audit whose requests differ a lot by strategy: samples, cut prints, an error.

What the LLM saw, by strategy (switch strategies on turns 2 to 11). Turn 1 defines `employees`
and `policy` without printing: coalesced shows their samples (`{"fx_date" "2025-09-30" "limits"
{...}}`), which is how turn 2 knows the policy's keys; full and compaction only say `Stored
(access as symbols): employees, policy`; namespaced shows samples only until a turn prints.
Turn 2 prints 28 lines: full shows them cut at 512 characters (on every later turn too), while
coalesced keeps only the run's last 3 prints (println_limit 3), so from turn 3 on it shows just
the last three employees. Turn 4 fails (`*` on a nil amount) and turn 5 recovers: coalesced
repeats the failed program and its error on every later turn, and turn 9 relies on it to keep
skipping nil amounts; namespaced shows the error on turn 5 only. Turn 9 defines the results
without printing; turn 10 reads their types and samples from coalesced's summary (full and
compaction give names only). From turn 10 compaction has dropped turns 1 to 6 (more than 8
turns) and sends the mission and the last 3 exchanges; from turn 9 coalesced lists only the last
5 tool calls (tool_call_limit 5).
"""

from engine.agent import SubAgent

NAMES = ["Maria Rossi", "Jonas Weber", "Aiko Tanaka", "Liam O'Brien", "Sofia Lindqvist",
         "Mateo García", "Chloé Martin", "Noah Fischer", "Ingrid Berg", "Omar Haddad",
         "Emma de Vries", "Lukas Novak", "Priya Nair", "Hugo Laurent", "Freya Jensen",
         "Diego Costa", "Hannah Schmid", "Yusuf Demir", "Clara Moreau", "Erik Nilsson",
         "Lena Kowalski", "Tomás Silva", "Mia Hoffmann", "Oskar Holm"]
GRADES = ["staff", "staff", "senior", "staff", "director", "staff", "senior", "staff"]
CURRENCIES = ["EUR", "EUR", "GBP", "EUR", "SEK", "USD", "EUR", "CHF"]
CATEGORIES = ["flight", "hotel", "train", "taxi", "meals"]
BASE_EUR = {"flight": 240, "hotel": 180, "train": 60, "taxi": 25, "meals": 35}
VENDORS = {"flight": "SkyLine Air", "hotel": "Hotel Aurora", "train": "EuroRail",
           "taxi": "CityCab", "meals": "Bistro Central"}
RATES = {"2025-09-30": {"EUR": 1.0, "GBP": 1.17, "USD": 0.85, "SEK": 0.091, "CHF": 1.07}}
POLICY = {"fx_date": "2025-09-30", "limits": {"staff": 2500, "senior": 2800, "director": 4000}}

EMPLOYEES = [{"id": f"E-{i + 1:02d}", "name": name, "grade": GRADES[i % 8],
              "currency": CURRENCIES[(i * 3) % 8]} for i, name in enumerate(NAMES)]


def _expense_lines() -> list[dict]:
    rates, lines = RATES["2025-09-30"], []
    for i, e in enumerate(EMPLOYEES):
        for k in range(5 + (i * 7) % 9):
            n = len(lines) + 1
            category = CATEGORIES[(i + k * 2) % 5]
            eur = BASE_EUR[category] * (1 + ((i * 13 + k * 29) % 17) / 8)
            lines.append({"line": f"X-{3000 + n}", "employee": e["id"],
                          "date": f"2025-{7 + k % 3:02d}-{1 + (i * 5 + k * 11) % 28:02d}",
                          "category": category, "currency": e["currency"],
                          "amount": None if n % 23 == 7 else round(eur / rates[e["currency"]], 2),
                          "receipt": f"R-{70000 + n * 37}"})        # pending approval: no amount
    by_line = {x["line"]: x for x in lines}
    # resubmitted lines (the same receipt twice), and a second taxi ride with the same fare
    for original, receipt in [("X-3020", None), ("X-3052", None), ("X-3075", "R-79999")]:
        lines.append({**by_line[original], "line": f"X-{3001 + len(lines)}",
                      "receipt": receipt or by_line[original]["receipt"]})
    return lines


EXPENSES = _expense_lines()
RECEIPTS = {x["line"]: x["receipt"] for x in EXPENSES}


def list_employees() -> list[dict]:
    """Every employee: :id ("E-01"), :name, :grade ("staff", "senior" or "director") and the
    :currency they file expenses in."""
    return EMPLOYEES


def get_policy() -> dict:
    """The travel policy in force: the date whose exchange rates convert expenses, and the
    quarterly travel limit in EUR per grade."""
    return POLICY


def get_expenses(quarter: str) -> list[dict]:
    """Every expense line filed in `quarter` ("2025-Q3"): :line, :employee, :date, :category,
    :currency and :amount (nil while the line awaits approval)."""
    return [{k: v for k, v in x.items() if k != "receipt"} for x in EXPENSES] \
        if quarter == "2025-Q3" else []


def get_fx_rates(date: str) -> dict:
    """Exchange rates on `date` (YYYY-MM-DD): currency code -> EUR per unit."""
    if date not in RATES:
        raise ValueError(f"no rates published for {date}")
    return RATES[date]


def get_receipt(line: str) -> dict:
    """The scanned receipt behind an expense line: :receipt_no, :vendor, :date, :amount."""
    x = next(x for x in EXPENSES if x["line"] == line)
    return {"receipt_no": x["receipt"], "vendor": VENDORS[x["category"]], "date": x["date"],
            "amount": x["amount"], "currency": x["currency"]}


agent = SubAgent(
    mission="Audit 2025-Q3 travel expenses: which employees spent more than their grade's "
            "quarterly limit (in EUR, at the policy's exchange rates), not counting pending "
            "lines or duplicate submissions? Return them, biggest overspend first.",
    tools={"list-employees": list_employees, "get-policy": get_policy,
           "get-expenses": get_expenses, "get-fx-rates": get_fx_rates,
           "get-receipt": get_receipt},
    max_turns=12, compress_history={"println_limit": 3, "tool_call_limit": 5},
    name="strategy-comparison",
    description="11-turn audit: silent defs, 28 prints, an error, compaction: compare strategies")

replies = [
    """thinking: Load the employees and the policy first; keep them for later turns.
```clojure
(def employees (tool/list-employees))
(def policy (tool/get-policy))
```""",
    """thinking: The policy sample shows :fx_date and :limits keyed by grade; the employee
sample is cut after :grade, so print one whole. Then the grades with their limits, and everyone.
```clojure
(println "first employee:" (first employees))
(doseq [[grade staff] (sort-by key (group-by :grade employees))]
  (println grade (count staff) "employees, limit EUR" (get-in policy [:limits grade])))
(doseq [e employees]
  (println (:id e) (:grade e) (:currency e) (:name e)))
```""",
    """thinking: 24 employees in several currencies. Now the Q3 expense lines.
```clojure
(def expenses (tool/get-expenses "2025-Q3"))
(println "lines:" (count expenses) "currencies:" (frequencies (map :currency expenses)))
(println "first line:" (first expenses))
```""",
    """thinking: Convert every line to EUR at the policy's date and total per employee.
```clojure
(def rates (tool/get-fx-rates (:fx_date policy)))
(def totals
  (->> expenses
       (group-by :employee)
       (map (fn [[id xs]] [id (reduce + (map #(* (:amount %) (get rates (:currency %))) xs))]))
       (into {})))
(println "top 5:" (take 5 (sort-by val > totals)))
```""",
    """thinking: Some amounts are nil: those are the lines awaiting approval, which the mission
says not to count. Skip them, and round the totals to cents.
```clojure
(def rates (tool/get-fx-rates (:fx_date policy)))
(def pending "lines awaiting approval (no amount)" (filter #(nil? (:amount %)) expenses))
(defn to-eur "a line's amount in EUR at the policy's rates" [x]
  (* (:amount x) (get rates (:currency x))))
(defn eur-totals "employee id -> EUR total of these lines" [lines]
  (->> lines
       (group-by :employee)
       (map (fn [[id xs]] [id (/ (math/round (* 100 (reduce + (map to-eur xs)))) 100)]))
       (into {})))
(def totals (eur-totals (remove #(nil? (:amount %)) expenses)))
(println "pending lines skipped:" (count pending))
(println "top 5:" (take 5 (sort-by val > totals)))
```""",
    """thinking: Now compare each total with the limit of the employee's grade.
```clojure
(def by-id (into {} (map (juxt :id identity) employees)))
(defn over-limit "employees whose total exceeds their grade's limit, biggest overspend first"
  [totals]
  (->> totals
       (keep (fn [[id eur]]
               (let [e (by-id id)
                     limit (get-in policy [:limits (:grade e)])]
                 (when (> eur limit)
                   {:employee id :name (:name e) :total_eur eur :over_eur (- eur limit)}))))
       (sort-by :over_eur >)
       vec))
(def flagged (over-limit totals))
(println "over limit:" (count flagged))
(doseq [f flagged] (println f))
```""",
    """thinking: Six employees are over. The mission says duplicate submissions must not count:
look for lines with the same employee, date, category and amount.
```clojure
(def suspects
  (->> (remove #(nil? (:amount %)) expenses)
       (group-by (juxt :employee :date :category :amount))
       vals
       (filter #(> (count %) 1))
       vec))
(println "groups of identical lines:" (count suspects))
(doseq [g suspects]
  (println (map :line g) (select-keys (first g) [:employee :date :category :amount])))
```""",
    """thinking: Three groups look identical, but two taxi rides on one day can be real. The
receipts decide: the same receipt number twice is a duplicate.
```clojure
(def receipts
  (into {} (for [g suspects, x g] [(:line x) (tool/get-receipt (:line x))])))
(doseq [g suspects]
  (println (map :line g) "receipts:" (map #(:receipt_no (receipts (:line %))) g)))
```""",
    """thinking: X-3020/X-3217 and X-3052/X-3218 share a receipt; the taxi rides X-3075/X-3219 do
not. Drop the later line of each true duplicate, keep skipping nil amounts as in the failed
turn, and recompute the totals and the flagged list.
```clojure
(def duplicate-lines "the later line of each pair filed with the same receipt"
  (set (for [g suspects
             :let [nos (map #(:receipt_no (receipts (:line %))) g)]
             :when (apply = nos)
             x (rest (sort-by :line g))]
         (:line x))))
(def clean-totals
  (eur-totals (remove #(or (nil? (:amount %)) (duplicate-lines (:line %))) expenses)))
(def final-flagged (over-limit clean-totals))
```""",
    """thinking: final-flagged has 5 entries now, flagged had 6. Check who dropped out before
returning.
```clojure
(println "duplicates removed:" (sort duplicate-lines))
(println "no longer over:"
         (sort (remove (set (map :employee final-flagged)) (map :employee flagged))))
(println "flagged:" (map (juxt :employee :over_eur) final-flagged))
```""",
    """thinking: E-03 is no longer over once its duplicate line is removed; the other five stay.
Return them.
```clojure
(return (mapv #(select-keys % [:employee :name :total_eur :over_eur]) final-flagged))
```""",
]
