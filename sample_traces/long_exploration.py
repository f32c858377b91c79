"""A model exploring support tickets for 26 turns to find what drives low satisfaction scores."""

from engine.agent import SubAgent
from engine.lisp import Keyword

FIELDS = ("id", "channel", "category", "agent", "first-response-min", "resolution-hours",
          "status", "csat")

# id, channel, category, agent, first response (minutes), resolution (hours), status, CSAT 1-5
ROWS = [
    ("T-1001", "email", "billing", "ana", 310, 5.5, "closed", 1),
    ("T-1002", "chat", "login", "bot", 2, 0.4, "closed", 3),
    ("T-1003", "phone", "shipping", "ben", 12, 1.2, "closed", 5),
    ("T-1004", "email", "bug", "chloe", 95, 26.0, "closed", 4),
    ("T-1005", "chat", "billing", "bot", 3, 2.1, "closed", 2),
    ("T-1006", "email", "shipping", "ana", 420, 8.0, "closed", 2),
    ("T-1007", "phone", "login", "ben", 8, 0.5, "closed", 5),
    ("T-1008", "chat", "security", "bot", 4, None, "open", None),
    ("T-1009", "email", "billing", "chloe", 275, 6.2, "closed", 2),
    ("T-1010", "phone", "bug", "ben", 20, 30.5, "closed", 4),
    ("T-1011", "chat", "shipping", "ana", 6, 1.0, "closed", 5),
    ("T-1012", "email", "login", "chloe", 45, 0.8, "closed", 4),
    ("T-1013", "chat", "billing", "bot", 2, 3.4, "closed", 1),
    ("T-1014", "phone", "security", "ben", 15, 4.0, "closed", None),
    ("T-1015", "email", "bug", "ana", 380, 41.0, "closed", 1),
    ("T-1016", "chat", "login", "bot", 3, 0.3, "closed", 3),
    ("T-1017", "phone", "billing", "chloe", 25, 1.5, "closed", 4),
    ("T-1018", "email", "shipping", "ben", 130, 2.2, "closed", 4),
    ("T-1019", "chat", "bug", "ana", 9, None, "open", None),
    ("T-1020", "email", "billing", "ana", 260, 7.5, "closed", 2),
    ("T-1021", "phone", "shipping", "chloe", 18, 0.9, "closed", 5),
    ("T-1022", "chat", "login", "bot", 4, 0.6, "closed", 4),
    ("T-1023", "email", "security", "chloe", 200, 12.0, "closed", None),
    ("T-1024", "phone", "billing", "ben", 30, 2.0, "closed", 3),
    ("T-1025", "chat", "shipping", "bot", 3, 1.1, "closed", 3),
    ("T-1026", "email", "login", "ana", 290, 3.0, "closed", 2),
    ("T-1027", "phone", "bug", "chloe", 22, 18.0, "closed", 5),
    ("T-1028", "chat", "billing", "ben", 7, None, "pending", None),
    ("T-1029", "email", "shipping", "chloe", 75, 1.8, "closed", 4),
    ("T-1030", "chat", "login", "bot", 2, 0.2, "closed", 2),
    ("T-1031", "phone", "billing", "ana", 35, 2.6, "closed", 4),
    ("T-1032", "email", "bug", "ben", 510, 52.0, "closed", 1),
    ("T-1033", "chat", "security", "ana", 5, None, "open", None),
    ("T-1034", "phone", "login", "chloe", 10, 0.4, "closed", 5),
    ("T-1035", "email", "billing", "ben", 150, 4.1, "closed", 3),
    ("T-1036", "chat", "bug", "bot", 3, 9.0, "closed", 2),
]

agent = SubAgent(
    mission="Here are last month's support tickets. Find what drives low CSAT scores and return "
            "the top factors, worst first, each with the numbers that support it.",
    data={"tickets": [{Keyword(k): v for k, v in zip(FIELDS, row)} for row in ROWS]},
    max_turns=30, compress_history={"println_limit": 6}, name="long-exploration",
    description="26 turns exploring support tickets: 31 prints (println_limit 6), docstrings, 5 errors")

replies = [
    """thinking: Let me see how many tickets there are and what one looks like.
```clojure
(println "tickets:" (count data/tickets))
(println (first data/tickets))
```""",
    """thinking: The fields are clear. Status and channel breakdown next.
```clojure
(def fields (keys (first data/tickets)))
(println "by status:" (frequencies (map :status data/tickets)))
(println "by channel:" (frequencies (map :channel data/tickets)))
```""",
    """thinking: Only closed tickets seem to get a CSAT. Keep the rated ones, and set up a place
for the answer and the findings.
```clojure
(def answer nil)
(def findings "Evidence for the answer; one map per factor" [])
(def rated "Tickets with a CSAT score (1-5); unrated ones left out" (filterv :csat data/tickets))
(println "rated:" (count rated) "of" (count data/tickets))
```""",
    """thinking: I need an average helper.
```clojure
(defn avg "Mean of xs; nil when xs is empty" [xs]
  (when (seq xs) (/ (reduce + xs) (count xs))))
(println "overall csat:" (avg (map :csat rated)))
(println "by channel:" (update-vals (group-by :channel rated) #(avg (map :csat %))))
```""",
    """thinking: Email is clearly the worst channel. Now by category, rounded for reading.
```clojure
(def by-category
  (->> (group-by :category data/tickets)
       (map (fn [[c ts]] [c (/ (Math/round (* 100.0 (avg (keep :csat ts)))) 100.0)]))
       (sort-by second)))
(doseq [[c a] by-category] (println c a))
```""",
    """thinking: security has no ratings at all, so its average is nil. Group the rated tickets
instead.
```clojure
(def by-category
  (->> (group-by :category rated)
       (map (fn [[c ts]] [c (/ (Math/round (* 100.0 (avg (map :csat ts)))) 100.0)]))
       (sort-by second)))
(doseq [[c a] by-category] (println c a))
```""",
    """thinking: billing is the lowest category. Response time probably matters too; bucket it.
```clojure
(defn bucket "Response-time bucket: fast under 60 min; slow under 240; very-slow otherwise" [m]
  (cond (< m 60) :fast (< m 240) :slow :else :very-slow))
(def by-bucket (update-vals (group-by #(bucket (:first-response-min %)) rated)
                            #(avg (map :csat %))))
(println "by response bucket:" by-bucket)
```""",
    """thinking: very-slow is far worse. Where does it drop? Try two cut-offs.
```clojure
(def slow (filterv #(> (:first-response-min %) 60) rated))
(println ">60 min:" (count slow) "avg" (avg (map :csat slow)))
(def slow (filterv #(> (:first-response-min %) 240) rated))
(println ">240 min:" (count slow) "avg" (avg (map :csat slow)))
```""",
    """thinking: The drop is past 4 hours. Count the low scores per agent.
```clojure
(def low-counts (atom {}))
(doseq [t rated :when (<= (:csat t) 2)]
  (swap! low-counts update (:agent t) (fnil inc 0)))
(println @low-counts)
```""",
    """thinking: No atoms here; frequencies does the same.
```clojure
(def low "Tickets rated 1 or 2" (filterv #(<= (:csat %) 2) rated))
(println "low by agent:" (frequencies (map :agent low)))
(println "rated by agent:" (frequencies (map :agent rated)))
```""",
    """thinking: Counts alone can mislead. Turn them into shares of each agent's tickets.
```clojure
(defn pct "Share of xs where pred holds, in percent; 0.0 when xs is empty" [pred xs]
  (if (empty? xs) 0.0 (* 100.0 (/ (count (filter pred xs)) (count xs)))))
(println "low share by agent:"
         (update-vals (group-by :agent rated) #(pct (fn [t] (<= (:csat t) 2)) %)))
```""",
    """thinking: The long decimals are hard to read. Round inside avg itself.
```clojure
(defn avg "Mean of xs rounded to 2 decimals; nil when xs is empty" [xs]
  (when (seq xs) (/ (Math/round (* 100.0 (/ (reduce + xs) (count xs)))) 100.0)))
(println "by agent:" (update-vals (group-by :agent rated) #(avg (map :csat %))))
```""",
    """thinking: Before trusting any of this, check for bad rows: negative durations or no agent.
```clojure
(def bad-rows (filterv #(or (neg? (:resolution-hours %)) (nil? (:agent %))) data/tickets))
(println "bad rows:" (count bad-rows))
```""",
    """thinking: Open tickets have no resolution-hours yet. Guard against nil, and check ids too.
```clojure
(def bad-rows (filterv #(or (some-> (:resolution-hours %) neg?) (nil? (:agent %)))
                       data/tickets))
(def dupes (->> data/tickets (map :id) frequencies (filter #(> (val %) 1)) (into {})))
(println "bad rows:" (count bad-rows) "duplicate ids:" dupes)
```""",
    """thinking: The data is clean. Record the response-time finding.
```clojure
(def findings (conj findings {:factor "first response over 4 hours"
                              :avg-csat (avg (map :csat slow))
                              :tickets (count slow)}))
(println "findings:" (count findings))
```""",
    """thinking: Now billing. Is it low on its own, or because billing emails wait long?
```clojure
(def billing (filterv #(= "billing" (:category %)) rated))
(println "billing avg:" (avg (map :csat billing))
         "others:" (avg (map :csat (remove #(= "billing" (:category %)) rated))))
(println "billing by channel:" (frequencies (map :channel billing)))
```""",
    """thinking: Three billing tickets waited over 4 hours. Leave them out and look again.
```clojure
(def billing-fast (filterv #(<= (:first-response-min %) 240) billing))
(println "billing within 4h:" (count billing-fast) "avg" (avg (map :csat billing-fast)))
```""",
    """thinking: Still below the overall average even when answered quickly. Record it.
```clojure
(def findings (conj findings {:factor "billing category"
                              :avg-csat (avg (map :csat billing-fast))
                              :tickets (count billing-fast)}))
(println "findings:" (count findings))
```""",
    """thinking: ana's low share is mostly her slow emails. The bot answers in minutes, so its low
scores need another explanation. Its average and low share, against humans.
```clojure
(def bot-tickets (filterv #(= "bot" (:agent %)) rated))
(println "bot avg:" (avg (map :csat bot-tickets)) "low share:" (pct bot-tickets))
```""",
    """thinking: pct takes the predicate first.
```clojure
(def bot-tickets (filterv #(= "bot" (:agent %)) rated))
(def human-fast (filterv #(and (not= "bot" (:agent %)) (< (:first-response-min %) 60)) rated))
(println "bot avg:" (avg (map :csat bot-tickets))
         "low share:" (pct #(<= (:csat %) 2) bot-tickets))
(println "humans answering within 1h, avg:" (avg (map :csat human-fast)))
```""",
    """thinking: The bot answers in minutes yet scores 2.5, against 4.5 for fast humans.
```clojure
(def findings (conj findings {:factor "handled by the bot"
                              :avg-csat (avg (map :csat bot-tickets))
                              :tickets (count bot-tickets)}))
```""",
    """thinking: Split the fast bucket to see whether instant answers score differently.
```clojure
(defn bucket
  "Response-time bucket; instant under 15 min, fast under 60,
   slow under 240; very-slow otherwise"
  [m]
  (cond (< m 15) :instant (< m 60) :fast (< m 240) :slow :else :very-slow))
(def by-bucket (update-vals (group-by #(bucket (:first-response-min %)) rated)
                            #(avg (map :csat %))))
(println "by bucket:" by-bucket)
```""",
    """thinking: instant is lower than fast, which must be the bot. Confirm.
```clojure
(def instant (filterv #(= :instant (bucket (:first-response-min %))) rated))
(println "instant, bot? -> avg:"
         (update-vals (group-by #(= "bot" (:agent %)) instant) #(avg (map :csat %))))
```""",
    """thinking: Confirmed: instant humans score 5.0, the bot 2.5. Rank the findings by how far
each sits below the overall average.
```clojure
(def ranked (->> findngs
                 (map #(assoc % :gap (- (avg (map :csat rated)) (:avg-csat %))))
                 (sort-by :gap >)))
(println (map :factor ranked))
```""",
    """thinking: Typo in findings.
```clojure
(def overall (avg (map :csat rated)))
(def ranked (->> findings
                 (map #(assoc % :gap (- overall (:avg-csat %))))
                 (sort-by :gap >)
                 vec))
(doseq [f ranked] (println (:factor f) "-> avg" (:avg-csat f) "gap" (:gap f)))
```""",
    """thinking: Three factors, worst first, with their evidence.
```clojure
(return {:overall-csat overall
         :factors (mapv :factor ranked)
         :evidence ranked})
```""",
]
