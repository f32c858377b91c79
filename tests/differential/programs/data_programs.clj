;; Realistic LLM-style data work over small vectors of maps.

;; == revenue-by-customer
(def orders [{:id 1 :customer "ann" :amount 120 :status :paid}
             {:id 2 :customer "bob" :amount 80 :status :pending}
             {:id 3 :customer "ann" :amount 45 :status :paid}
             {:id 4 :customer "cid" :amount 300 :status :paid}
             {:id 5 :customer "bob" :amount 60 :status :paid}])
(->> orders
     (filter #(= :paid (:status %)))
     (group-by :customer)
     (map (fn [[c os]] [c (reduce + (map :amount os))]))
     (into {}))

;; == top-n-by-amount
(def orders [{:id 1 :amount 120} {:id 2 :amount 80} {:id 3 :amount 45} {:id 4 :amount 300} {:id 5 :amount 60}])
(->> orders (sort-by :amount >) (take 3) (mapv :id))

;; == status-frequencies
(def tickets [{:status "open"} {:status "closed"} {:status "open"} {:status "blocked"} {:status "open"}])
(frequencies (map :status tickets))

;; == group-count-update-vals
(def people [{:name "a" :dept :eng} {:name "b" :dept :ops} {:name "c" :dept :eng} {:name "d" :dept :eng}])
(update-vals (group-by :dept people) count)

;; == average-score-per-team
(def rows [{:team "red" :score 10} {:team "blue" :score 7} {:team "red" :score 4} {:team "blue" :score 9}])
(into {} (for [[team rs] (group-by :team rows)]
           [team (/ (double (reduce + (map :score rs))) (count rs))]))

;; == nested-update-inventory
(def inventory {:warehouse {:apples 10 :pears 4}})
(-> inventory
    (update-in [:warehouse :apples] - 3)
    (update-in [:warehouse :pears] + 6)
    (assoc-in [:warehouse :kiwis] 1))

;; == transactions-to-balances
(def txs [{:acct "a" :amt 100} {:acct "b" :amt 50} {:acct "a" :amt -30} {:acct "c" :amt 5} {:acct "b" :amt -50}])
(reduce (fn [bal {:keys [acct amt]}] (update bal acct (fnil + 0) amt)) {} txs)

;; == word-count-top3
(def text "the quick brown fox jumps over the lazy dog the fox")
(->> (str/split text #"\s+")
     frequencies
     (sort-by (fn [[w c]] [(- c) w]))
     (take 3))

;; == index-by-id
(def users [{:id 7 :name "x"} {:id 3 :name "y"} {:id 9 :name "z"}])
(zipmap (map :id users) users)

;; == join-two-collections
(def users [{:id 1 :name "Ann"} {:id 2 :name "Bo"}])
(def purchases [{:user-id 1 :item "pen"} {:user-id 2 :item "ink"} {:user-id 1 :item "pad"}])
(let [by-id (into {} (map (juxt :id :name) users))]
  (mapv (fn [p] (assoc p :user (by-id (:user-id p)))) purchases))

;; == items-per-user-sorted
(def purchases [{:user "b" :item "ink"} {:user "a" :item "pen"} {:user "b" :item "cap"} {:user "a" :item "pad"}])
(->> purchases
     (group-by :user)
     (map (fn [[u ps]] [u (vec (sort (map :item ps)))]))
     (sort-by first))

;; == max-by-field
(def cities [{:name "A" :pop 500} {:name "B" :pop 1500} {:name "C" :pop 900}])
(:name (apply max-key :pop cities))

;; == total-with-tax-formatted
(def cart [{:price 2.50 :qty 4} {:price 10.0 :qty 1} {:price 0.99 :qty 3}])
(let [subtotal (reduce + (map #(* (:price %) (:qty %)) cart))]
  (format "subtotal %.2f, total %.2f" subtotal (* subtotal 1.2)))

;; == report-lines
(def rows [{:name "alpha" :n 3} {:name "beta" :n 12} {:name "gamma" :n 7}])
(doseq [{:keys [name n]} (sort-by :n > rows)]
  (println (format "%-6s %3d" name n)))

;; == distinct-tags
(def posts [{:tags ["clj" "lisp"]} {:tags ["python"]} {:tags ["lisp" "scheme" "clj"]}])
(->> posts (mapcat :tags) distinct sort vec)

;; == tag-counts-desc
(def posts [{:tags ["a" "b"]} {:tags ["b"]} {:tags ["b" "c" "a"]} {:tags ["a" "b"]}])
(->> posts (mapcat :tags) frequencies (sort-by val >) (mapv first))

;; == filter-by-multiple-conditions
(def products [{:name "p1" :price 5 :stock 0} {:name "p2" :price 15 :stock 3}
               {:name "p3" :price 25 :stock 8} {:name "p4" :price 8 :stock 2}])
(->> products (filter #(and (pos? (:stock %)) (< (:price %) 20))) (map :name))

;; == rename-and-select
(def raw [{:first_name "Ann" :age 30 :ssn "x"} {:first_name "Bo" :age 25 :ssn "y"}])
(mapv #(-> % (select-keys [:first_name :age]) (set/rename-keys {:first_name :name})) raw)

;; == bucket-by-range
(def ages [3 17 25 34 67 45 12 80])
(group-by #(cond (< % 18) :minor (< % 65) :adult :else :senior) ages)

;; == running-balance
(def deltas [100 -20 -50 30])
(vec (reductions + 0 deltas))

;; == pairwise-differences
(def readings [10 13 12 18 25])
(mapv (fn [[a b]] (- b a)) (partition 2 1 readings))

;; == chunk-into-batches
(mapv #(reduce + %) (partition-all 3 (range 1 11)))

;; == deep-merge-like
(merge-with merge {:a {:x 1} :b {:y 2}} {:a {:z 3}})

;; == pivot-table
(def sales [{:region "n" :q 1 :v 10} {:region "n" :q 2 :v 20} {:region "s" :q 1 :v 5} {:region "n" :q 1 :v 1}])
(reduce (fn [acc {:keys [region q v]}] (update-in acc [region q] (fnil + 0) v)) {} sales)

;; == find-first-match
(def items [{:id 1 :ok false} {:id 2 :ok true} {:id 3 :ok true}])
(:id (first (filter :ok items)))

;; == some-with-predicate-map
(def items [{:id 1 :qty 0} {:id 2 :qty 5}])
(some #(when (pos? (:qty %)) (:id %)) items)

;; == count-where
(def events [{:type :click} {:type :view} {:type :click} {:type :buy}])
(count (filter #(= :click (:type %)) events))

;; == keyword-fields-to-strings
(def m {:alpha 1 :beta 2})
(->> m keys (map name) sort (str/join "|"))

;; == summary-map
(def nums [4 8 15 16 23 42])
{:count (count nums) :sum (reduce + nums) :min (apply min nums) :max (apply max nums)
 :mean (/ (double (reduce + nums)) (count nums))}

;; == median-of-sorted
(defn median [xs] (let [s (vec (sort xs)) n (count s) mid (quot n 2)]
                    (if (odd? n) (s mid) (/ (+ (s (dec mid)) (s mid)) 2.0))))
[(median [5 1 3]) (median [4 1 3 2])]

;; == nested-map-walk-sum
(def tree {:value 1 :children [{:value 2 :children []} {:value 3 :children [{:value 4 :children []}]}]})
(defn tree-sum [{:keys [value children]}] (+ value (reduce + (map tree-sum children))))
(tree-sum tree)

;; == flatten-nested-categories
(def cats {:fruit ["apple" "pear"] :veg ["kale"] :grain []})
(->> cats (sort-by key) (mapcat (fn [[k vs]] (map #(str (name k) "/" %) vs))) vec)

;; == dedupe-by-key
(def rows [{:id 1 :v "a"} {:id 2 :v "b"} {:id 1 :v "c"} {:id 3 :v "d"} {:id 2 :v "e"}])
(vals (reduce (fn [m r] (if (contains? m (:id r)) m (assoc m (:id r) r))) (sorted-map) rows))

;; == percent-shares
(def votes {:a 30 :b 50 :c 20})
(let [total (reduce + (vals votes))]
  (into {} (map (fn [[k v]] [k (format "%.1f%%" (* 100.0 (/ (double v) total)))]) votes)))

;; == string-report-with-join
(def team [{:name "Ann" :role "lead"} {:name "Bo" :role "dev"}])
(str/join "; " (map (fn [{:keys [name role]}] (str name " (" role ")")) team))

;; == capitalize-names
(mapv (comp str/capitalize str/lower-case) ["aDA" "GRACE" "linus"])

;; == parse-csv-lines
(def csv "name,qty\napple,3\npear,5\nfig,2")
(let [[header & rows] (str/split-lines csv)
      ks (map keyword (str/split header #","))]
  (mapv (fn [line] (update (zipmap ks (str/split line #",")) :qty parse-long)) rows))

;; == group-then-top-per-group
(def scores [{:g "x" :p "a" :s 5} {:g "x" :p "b" :s 9} {:g "y" :p "c" :s 3} {:g "y" :p "d" :s 4}])
(update-vals (group-by :g scores) (fn [rs] (:p (apply max-key :s rs))))

;; == date-strings-sorted
(def events [{:d "2024-03-01" :e "c"} {:d "2023-12-31" :e "a"} {:d "2024-01-15" :e "b"}])
(mapv :e (sort-by :d events))

;; == validate-records
(def recs [{:id 1 :email "a@x.io"} {:id 2} {:id 3 :email ""}])
(->> recs (remove #(seq (:email %))) (mapv :id))

;; == histogram-lines
(doseq [[k n] (sort (frequencies "abracadabra"))]
  (println (str k " " (apply str (repeat n "*")))))

;; == loop-paginate
(def pages {1 ["a" "b"] 2 ["c"] 3 []})
(loop [p 1 acc []]
  (let [items (get pages p [])]
    (if (empty? items) acc (recur (inc p) (into acc items)))))

;; == matrix-transpose-and-sum
(def m [[1 2 3] [4 5 6]])
[(apply mapv vector m) (mapv #(reduce + %) m) (apply map + m)]
