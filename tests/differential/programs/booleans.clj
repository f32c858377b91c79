;; true and false inside collections are not 1 and 0. Programs avoid (= 1 1.0), which this
;; project makes true on purpose.

;; == set-of-one-and-true
[(count #{1 true}) (count #{0 false}) (count (set [1 true false 0 nil]))]

;; == set-membership
[(contains? #{1} true) (contains? #{true} 1) (contains? #{true} true) (contains? #{false} false)
 (#{1} true) (#{false} false) (get #{true} 1)]

;; == set-building
[(count (conj #{1} true)) (count (into #{0} [false])) (disj #{1 true} true) (disj #{1 true} 1)
 (count (hash-set true 1))]

;; == set-operations
[(count (clojure.set/union #{1} #{true})) (clojure.set/intersection #{1 true} #{true})
 (clojure.set/difference #{0 false} #{0})]

;; == set-of-predicate-results
(count (set (map even? (range 10))))

;; == map-with-one-and-true-keys
[(count {1 :a true :b}) (get {true :t 1 :one} true) (get {true :t 1 :one} 1)
 ({false :f 0 :zero} false) (get {1 :one} true)]

;; == map-key-membership
[(contains? {1 :a} true) (contains? {true :a} true) (find {true 1} true)]

;; == map-writes-with-boolean-keys
[(assoc {1 :a} true :b) (dissoc {1 :a true :b} true) (update {true 1 1 10} true inc)
 (zipmap [1 true] [:a :b]) (hash-map 0 :zero false :no)]

;; == map-boolean-keys-read-back
[(sort (map str (keys {true 1 false 2}))) (get-in {true {false 3}} [true false])
 (assoc-in {} [true false] 1) (select-keys {true 1 1 2} [true])]

;; == merge-with-boolean-keys
(merge-with + {true 1} {true 2 1 5})

;; == update-keys-to-booleans
(update-keys {1 :a 2 :b} odd?)

;; == map-invert-boolean-values
(clojure.set/map-invert {:a true :b 1})

;; == equality-vectors
[(= [1] [true]) (= [0] [false]) (not= [1] [true]) (= [true] [true])]

;; == equality-nested
[(= {:a 1} {:a true}) (= {:a [1 [0]]} {:a [1 [false]]}) (= #{1} #{true})
 (= #{[1]} #{[true]}) (= {true 1} {1 1}) (= #{1 true} #{true 1})]

;; == equality-of-predicate-results
[(= (map odd? [1 2]) [true false]) (= (map odd? [1 2]) [1 0])]

;; == distinct-keeps-both
[(distinct [1 true false 0 1 true]) (into [] (distinct) [1 true 1 true])]

;; == frequencies-and-group-by
[(frequencies [1 true 1 true false 0])
 (group-by #(if (odd? %) true %) [1 2 3 4])]

;; == dedupe-booleans
(dedupe [1 true true 1 0 false])

;; == boolean-keys-destructured
(map (fn [[k v]] (if k :t :f)) (sort-by val {false 1 true 2}))

;; == set-of-vectors-with-one-and-true
[(count #{[1] [true]}) (count (set [[0] [false] [0]])) (contains? #{[1]} [true])]

;; == map-with-vector-keys-one-and-true
(let [m {[1] :one [true] :yes}] [(count m) (get m [1]) (get m [true])])

;; == nested-booleans-in-keys
(let [m (-> {} (assoc [[true] 1] :a) (assoc [[1] 1] :b) (assoc {:k true} :c) (assoc {:k 1} :d))]
  [(count m) (get m [[true] 1]) (get m [[1] 1]) (get m {:k true}) (get m {:k 1})])

;; == distinct-frequencies-group-by-of-vectors
[(distinct [[1] [true] [1]]) (get (frequencies [[1] [true] [1]]) [true])
 (count (group-by identity [[0] [false]]))]

;; == equality-with-nested-boolean-keys
[(= #{[1]} #{[true]}) (= {[1] 1} {[true] 1}) (= #{[true]} (set [[true]]))]

;; == keys-of-boolean-vectors-read-back
(let [m {[true] 1 [1] 2}] [(sort (map str (keys m))) (true? (first (first (filter (comp #{1} val) (seq m)))))])
