;; Maps: access, assoc/update (and -in), merge, select-keys, keys/vals (sorted), update-vals...

;; == get-variants
[(get {:a 1} :a) (get {:a 1} :b) (get {:a 1} :b 0) (get {"x" 1} "x") (get nil :a)]

;; == get-in-nested
[(get-in {:a {:b {:c 42}}} [:a :b :c]) (get-in {:a {:b 1}} [:a :x]) (get-in {:a 1} [:x :y] :none)]

;; == get-in-vector-index
(get-in {:users [{:name "a"} {:name "b"}]} [:users 1 :name])

;; == get-in-empty-path
(get-in {:a 1} [])

;; == assoc-fn
[(assoc {:a 1} :b 2) (assoc {:a 1} :a 5) (assoc {} :a 1 :b 2) (assoc nil :k :v)]

;; == assoc-in-fn
[(assoc-in {} [:a :b] 1) (assoc-in {:a {:x 0}} [:a :y] 2) (assoc-in {:a [1 2]} [:a 1] 9)]

;; == update-fn
[(update {:a 1} :a inc) (update {:a 1} :a + 10 100) (update {:a [1]} :a conj 2)]

;; == update-missing-key
(update {:a 1} :b (fnil inc 0))

;; == update-nil-value
(update {} :xs conj 1)

;; == update-in-fn
[(update-in {:a {:b 1}} [:a :b] inc) (update-in {} [:a :b] (fnil + 0) 5)]

;; == update-in-vector-index
(update-in {:users [{:visits 1} {:visits 5}]} [:users 1 :visits] inc)

;; == dissoc-fn
[(dissoc {:a 1 :b 2} :a) (dissoc {:a 1 :b 2 :c 3} :a :c) (dissoc {:a 1} :z)]

;; == merge-fn
[(merge {:a 1} {:b 2} {:a 3}) (merge {:a 1} nil) (merge nil {:b 1})]

;; == merge-with-plus
(merge-with + {:a 1 :b 2} {:a 10 :c 3} {:a 100})

;; == merge-with-into
(merge-with into {:a [1] :b [2]} {:a [3] :c [4]})

;; == select-keys-fn
[(select-keys {:a 1 :b 2 :c 3} [:a :c :z]) (select-keys {:a 1} [])]

;; == keys-vals-sorted
(let [m {:b 2 :c 3 :a 1}] [(sort (keys m)) (sort (vals m))])

;; == keys-of-small-map
[(keys {:a 1}) (vals {:a 1})]

;; == contains-map
[(contains? {:a 1} :a) (contains? {:a nil} :a) (contains? {:a 1} :b)]

;; == find-entry-key-val
(let [e (first {:k 7})] [(key e) (val e)])

;; == map-keys-from-sorted-entries
(map key (sort {:b 2 :a 1}))

;; == zipmap-then-lookup
(let [m (zipmap ["x" "y"] [10 20])] (+ (m "x") (get m "y")))

;; == update-vals-fn
(update-vals {:a 1 :b 2} inc)

;; == update-keys-fn
(update-keys {:a 1 :b 2} name)

;; == map-invert-manual
(into {} (map (fn [[k v]] [v k]) {:a 1 :b 2}))

;; == into-sorted-pairs
(into {} (sort-by val {:x 3 :y 1}))

;; == conj-map
[(conj {:a 1} [:b 2]) (conj {:a 1} {:b 2 :c 3})]

;; == map-count-and-empty
[(count {}) (empty? {}) (count {:a 1 :b 2})]

;; == nested-map-literal
{:user {:name "Ann" :tags #{:x}} :items [{:id 1} {:id 2}]}

;; == map-with-string-keys
(assoc {"a" 1} "b" 2)

;; == map-with-number-keys
(get {1 "one" 2 "two"} 2)

;; == map-with-vector-keys
(get {[1 2] :pair} [1 2])

;; == frequencies-then-max
(key (apply max-key val (frequencies [:a :b :b :c :b :a])))

;; == hash-map-fn
(hash-map :a 1 :b 2)

;; == sorted-map-fn
(sorted-map :b 2 :a 1 :c 3)

;; == sorted-map-keys-order
(keys (sorted-map :b 2 :a 1 :c 3))

;; == map-equality-order-independent
(= {:a 1 :b 2} (assoc (assoc {} :b 2) :a 1))

;; == reduce-into-nested-map
(reduce (fn [m [a b v]] (assoc-in m [a b] v)) {} [[:x :p 1] [:x :q 2] [:y :p 3]])

;; == large-map-literal
(let [m (zipmap (range 20) (map #(* % %) (range 20)))] [(get m 19) (count m) (reduce + (vals m))])

;; == keys-of-vector-error !error
(keys [1 2])

;; == assoc-missing-value-error !error
(assoc {:a 1} :b)

;; == update-type-error !error
(update {:a "x"} :a inc)

;; == dissoc-on-vector-error !error
(dissoc [1 2] 0)
