;; map (several colls), filter, remove, reduce, reduce-kv, keep, mapcat, some, every?...

;; == map-one-coll
(map inc [1 2 3])

;; == map-two-colls
(map + [1 2 3] [10 20 30])

;; == map-three-colls
(map + [1 2 3] [10 20 30] [100 200 300])

;; == map-shortest-coll
(map vector [1 2] [:a :b :c])

;; == map-over-string
(map str/upper-case (map str "abc"))

;; == map-over-set-sorted
(sort (map inc #{1 2 3}))

;; == map-over-map-entries
(sort (map (fn [[k v]] (* v 10)) {:a 1 :b 2}))

;; == mapv-result
(mapv #(* 2 %) [1 2 3])

;; == map-nil-coll
(map inc nil)

;; == map-indexed-fn
(map-indexed (fn [i x] (str i ":" x)) ["a" "b" "c"])

;; == filter-basic
[(filter even? (range 10)) (filter :active [{:active true :n 1} {:active false :n 2}])]

;; == filterv-basic
(filterv pos? [-1 2 -3 4])

;; == remove-basic
(remove nil? [1 nil 2 nil 3])

;; == filter-set-pred
(filter #{"a" "c"} ["a" "b" "c" "d"])

;; == filter-map-entries
(into {} (filter (fn [[k v]] (> v 1)) {:a 1 :b 2 :c 3}))

;; == reduce-with-init
(reduce + 100 [1 2 3])

;; == reduce-without-init
[(reduce + [1 2 3 4]) (reduce * [5]) (reduce + [])]

;; == reduce-max
(reduce max [3 9 2 7])

;; == reduce-build-map
(reduce (fn [m x] (assoc m x (* x x))) {} [1 2 3])

;; == reduce-conj
(reduce conj [0] [1 2 3])

;; == reduce-over-map
(reduce (fn [acc [k v]] (+ acc v)) 0 {:a 1 :b 2 :c 3})

;; == reduce-reduced
(reduce (fn [acc x] (if (> acc 10) (reduced acc) (+ acc x))) 0 (range 100))

;; == reduce-kv-sum
(reduce-kv (fn [acc k v] (+ acc v)) 0 {:a 1 :b 2 :c 3})

;; == reduce-kv-invert
(reduce-kv (fn [m k v] (assoc m v k)) {} {:a 1 :b 2})

;; == reduce-kv-vector
(reduce-kv (fn [acc i x] (+ acc (* i x))) 0 [10 20 30])

;; == reductions-running-total
(reductions + [1 2 3 4])

;; == reductions-with-init
(reductions conj [] [1 2 3])

;; == keep-fn
[(keep #(when (odd? %) (* % 10)) [1 2 3 4 5]) (keep :a [{:a 1} {:b 2} {:a 3}])]

;; == keep-keeps-false
(keep (fn [x] (if (even? x) false nil)) [1 2 3 4])

;; == keep-indexed-fn
(keep-indexed (fn [i x] (when (even? i) x)) [:a :b :c :d :e])

;; == mapcat-fn
[(mapcat (fn [x] [x x]) [1 2 3]) (mapcat identity [[1 2] [] [3]])]

;; == mapcat-two-colls
(mapcat (fn [a b] [a b]) [1 2] [:x :y])

;; == some-fn-results
[(some even? [1 3 4 5]) (some even? [1 3]) (some #(when (> % 2) (* % 10)) [1 2 3 4])]

;; == some-keyword
(some :email [{:name "a"} {:email "b@c"} {:email "d@e"}])

;; == some-set
(some #{3 4} [1 2 3 4])

;; == every-with-set
(every? #{1 2} [1 2 1])

;; == sort-by-keyword-fn
(sort-by :n [{:n 3} {:n 1} {:n 2}])

;; == group-by-fn
(group-by count ["a" "bb" "cc" "d" "eee"])

;; == partition-by-fn
(partition-by odd? [1 3 2 4 5 7 6])

;; == repeatedly-limited
(repeatedly 3 (constantly :x))

;; == max-key-fn
[(max-key count "a" "bbb" "cc") (min-key count "aa" "b" "ccc")]

;; == max-key-ties-last
[(max-key :v {:v 1 :id 1} {:v 3 :id 2} {:v 3 :id 3}) (min-key :v {:v 1 :id 1} {:v 1 :id 2})]

;; == apply-max-key
(apply max-key :score [{:name "a" :score 3} {:name "b" :score 9} {:name "c" :score 5}])
