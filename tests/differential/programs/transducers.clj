;; Transducers: one-argument sequence functions, comp, into, transduce, sequence.

;; == into-map-xf
(into [] (map inc) [1 2 3])

;; == into-filter-remove
[(into [] (filter odd?) (range 6)) (into [] (remove odd?) (range 6))]

;; == into-take-drop
[(into [] (take 2) [5 6 7]) (into [] (take 0) [5 6 7]) (into [] (take 9) [5 6])
 (into [] (drop 2) [5 6 7]) (into [] (drop -1) [5 6])]

;; == into-mapcat-keep
[(into [] (mapcat range) [1 2 3]) (into [] (keep :n) [{:n 1} {} {:n false}])]

;; == into-while
[(into [] (take-while pos?) [1 2 -1 3]) (into [] (drop-while pos?) [1 2 -1 3])]

;; == into-distinct-dedupe
[(into [] (distinct) [1 2 1 3 2]) (into [] (dedupe) [1 1 2 1])]

;; == into-partition-all
[(into [] (partition-all 2) [1 2 3 4 5]) (into [] (partition-all 3) [])]

;; == into-cat
(into [] cat [[1 2] [] [3]])

;; == into-set-and-map
[(into #{} (map #(mod % 3)) (range 10))
 (into {} (map (fn [x] [x (* x x)])) [1 2 3])
 (into [:a] (map name) [:b :c])]

;; == into-nil-source
(into [] (map inc) nil)

;; == comp-order
[(into [] (comp (filter odd?) (map inc)) (range 6))
 (into [] (comp (map inc) (filter odd?)) (range 6))]

;; == comp-three-with-take
(into [] (comp (map #(* % %)) (filter even?) (take 3)) (range 100))

;; == comp-mapcat-take-stops-inside-a-chunk
(into [] (comp (mapcat range) (take 3)) [2 2 2])

;; == comp-partition-then-sum
(into [] (comp (partition-all 2) (map #(apply + %))) [1 2 3 4 5])

;; == comp-take-then-partition-flushes
(into [] (comp (take 3) (partition-all 2)) (range 10))

;; == comp-distinct-take
(into [] (comp (distinct) (take 2)) [3 3 4 4 5])

;; == comp-empty
(into [] (comp) [1 2])

;; == comp-of-keep-and-dedupe
(into [] (comp (keep #(when (pos? %) (quot % 2))) (dedupe)) [1 2 3 -1 4 5])

;; == transduce-plus
[(transduce (map inc) + [1 2 3]) (transduce (map inc) + 100 [1 2 3])
 (transduce (map inc) + [])]

;; == transduce-conj
(transduce (filter even?) conj [1 2 3 4])

;; == transduce-str
(transduce (map str) str ["a" :b 1])

;; == transduce-max-with-init
(transduce (map count) max 0 ["a" "abc" "ab"])

;; == transduce-take-reduced
(transduce (take 2) conj [] [5 6 7])

;; == transduce-completing
[(transduce (map inc) (completing (fn [acc x] (+ acc x))) 0 [1 2])
 (transduce (map inc) (completing conj count) [] [1 2 3])]

;; == transduce-completion-arity-of-own-fn
(transduce (take 1) (fn ([] 0) ([acc] (* 10 acc)) ([acc x] (+ acc x))) [4 5])

;; == transduce-two-arity-fn-fails !error
(transduce (map inc) (fn [acc x] (+ acc x)) 0 [1 2])

;; == transduce-not-a-transducer !error
(transduce 5 + [1])

;; == sequence-xf
[(sequence (map inc) [1 2]) (sequence (comp (filter odd?) (take 1)) (range 10))]

;; == sequence-coll
[(sequence [1 2]) (sequence nil) (sequence {:a 1})]

;; == transducer-is-a-function
[(fn? (map inc)) (fn? (comp (filter odd?) (take 2)))]

;; == reduce-with-a-transducer-by-hand
(let [rf ((map inc) conj)] (reduce rf [] [1 2 3]))

;; == take-stops-a-long-source
(into [] (comp (map #(* 2 %)) (take 3)) (range 1000000))
