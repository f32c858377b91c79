;; map, filter, remove and reduce over a fn written in place: the engine runs the fn's body in
;; a loop in place of a call per item (engine/lisp/fused.py); the results must not change.

;; == fused-map-captures-a-let
(let [n 3] (mapv #(* n %) [1 2 3]))

;; == fused-map-shadows-an-outer-name
(let [x 10] [(mapv (fn [x] (inc x)) [1 2]) x])

;; == fused-nested-maps
(mapv (fn [x] (mapv (fn [y] (* x y)) [1 2])) [1 2 3])

;; == fused-map-makes-closures
(let [fs (mapv (fn [x] (fn [] x)) [1 2 3])] (mapv #(%) fs))

;; == fused-map-with-let-in-body
(mapv (fn [x] (let [y (* x x) z (+ y 1)] [y z])) [1 2 3])

;; == fused-map-over-map-entries
(sort (map (fn [e] (key e)) {:a 1 :b 2}))

;; == fused-map-over-string-and-nil
[(map (fn [c] (str c c)) "ab") (map (fn [x] x) nil)]

;; == fused-filter-fields-and-numbers
(filterv #(and (pos? (:n %)) (> (:p %) 1.5)) [{:n 1 :p 2.5} {:n 0 :p 9} {:n 2 :p 1.5} {:n 3 :p 2}])

;; == fused-filter-truthy-values
(filter (fn [x] (get {1 :a 2 nil 3 false} x)) [1 2 3 4])

;; == fused-remove
(remove #(or (nil? %) (neg? %)) [1 nil -2 3 0])

;; == fused-number-predicates-on-floats
[(filter pos? [1.5 -0.5 0.0]) (mapv #(zero? %) [0 0.0 -0.0 1]) (mapv #(even? %) [0 -3 4])]

;; == fused-comparisons-mixed-numbers
(mapv #(< % 2) [1 1.5 2 2.5])

;; == fused-reduce-with-init
(reduce (fn [acc x] (+ acc (* x x))) 0 (range 10))

;; == fused-reduce-stops-at-reduced
(reduce (fn [acc x] (if (> acc 10) (reduced acc) (+ acc x))) 0 (range 100))

;; == fused-reduce-builds-a-map
(reduce (fn [m i] (assoc m (str "k" i) i)) {} (range 5))

;; == fused-reduce-captures
(let [k 2] (reduce (fn [acc x] (conj acc (* k x))) [] [1 2 3]))

;; == fused-reduce-over-map
(reduce (fn [acc e] (+ acc (val e))) 0 {:a 1 :b 2})

;; == fused-map-type-error !error
(mapv #(+ % 1) [1 nil])

;; == fused-filter-compare-error !error
(filterv #(> % 1) [2 "a"])

;; == fused-pos-error !error
(filter #(pos? %) [1 :a])

;; == fused-reduce-error !error
(reduce (fn [acc x] (+ acc x)) 0 [1 "2"])

;; == fused-assoc-into-a-map
(reduce (fn [m i] (assoc m (str "k" (mod i 4)) i)) {} (range 10))

;; == fused-assoc-odd-keys
[(reduce (fn [m i] (assoc m (even? i) i)) {} (range 5))
 (reduce (fn [m i] (assoc m [i (odd? i)] i)) {[1 true] :x} (range 3))
 (reduce (fn [m i] (assoc m nil i)) {} (range 2))]

;; == fused-assoc-into-nil-and-vectors
[(reduce (fn [m i] (assoc m i :x)) nil (range 2)) (reduce (fn [m i] (assoc m i :x)) [:a] (range 3))]

;; == fused-assoc-reading-the-accumulator
(reduce (fn [m i] (assoc m (count m) (* i i))) {} (range 4))

;; == fused-assoc-over-records
(reduce (fn [m r] (assoc m (:id r) (:name r))) {:z 0} [{:id 1 :name "a"} {:id 2 :name "b"} {:id 1 :name "c"}])

;; == fused-assoc-into-a-number-error !error
(reduce (fn [m i] (assoc m :k i)) 5 [1 2])
