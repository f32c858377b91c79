;; Sequence functions over vectors.

;; == first-rest-next
[(first [1 2 3]) (rest [1 2 3]) (next [1 2 3]) (next [1]) (first []) (first nil)]

;; == second-last
[(second [1 2 3]) (last [1 2 3]) (last []) (ffirst [[1 2] [3]])]

;; == nth-basic
[(nth [10 20 30] 1) (nth [1] 5 :none) (nth [1 2] 0 :x)]

;; == get-on-vector
[(get [10 20 30] 2) (get [1] 5) (get [1] -1) (get [1] 3 :d)]

;; == cons-front
(cons 0 [1 2 3])

;; == conj-vector
[(conj [1 2] 3) (conj [1 2] 3 4) (conj [] [1])]

;; == conj-nil
(conj nil 1)

;; == peek-pop
[(peek [1 2 3]) (pop [1 2 3]) (peek [])]

;; == take-drop
[(take 2 [1 2 3 4]) (drop 2 [1 2 3 4]) (take 10 [1 2]) (drop 10 [1 2]) (take 0 [1])]

;; == take-while-drop-while
[(take-while neg? [-2 -1 0 1 -5]) (drop-while neg? [-2 -1 0 1 -5])]

;; == take-last-drop-last
[(take-last 2 [1 2 3 4]) (drop-last [1 2 3 4]) (drop-last 2 [1 2 3 4])]

;; == butlast-basic
(butlast [1 2 3])

;; == take-nth-fn
(take-nth 3 (range 10))

;; == split-at-fn
(split-at 2 [1 2 3 4 5])

;; == split-with-fn
(split-with odd? [1 3 4 5 7])

;; == partition-basic
[(partition 2 [1 2 3 4 5]) (partition 3 [1 2])]

;; == partition-step
(partition 2 1 [1 2 3 4])

;; == partition-step-pad
(partition 3 3 [:pad :pad] [1 2 3 4])

;; == partition-all-fn
[(partition-all 2 [1 2 3 4 5]) (partition-all 3 2 [1 2 3 4 5])]

;; == interleave-two
(interleave [1 2 3] [:a :b :c])

;; == interleave-uneven
(interleave [1 2 3] [:a :b])

;; == interleave-three
(interleave [1 2] [3 4] [5 6])

;; == interpose-fn
[(interpose ", " ["a" "b" "c"]) (apply str (interpose "-" [1 2 3]))]

;; == flatten-nested
(flatten [1 [2 [3 [4 5]]] 6])

;; == flatten-keeps-maps
(flatten [[1 {:a 2}] [#{3}]])

;; == flatten-nil
(count (flatten nil))

;; == distinct-fn
(distinct [1 2 1 3 2 4])

;; == dedupe-fn
(dedupe [1 1 2 2 2 1 3 3])

;; == frequencies-fn
(frequencies [:a :b :a :c :a :b])

;; == frequencies-strings
(frequencies (str/split "the cat and the hat and the bat" #" "))

;; == group-by-keyword
(group-by :type [{:type :a :v 1} {:type :b :v 2} {:type :a :v 3}])

;; == sort-numbers
[(sort [3 1 2]) (sort > [3 1 2]) (sort [2.5 1 -3])]

;; == sort-strings
(sort ["pear" "Apple" "banana" "apple"])

;; == sort-keywords
(sort [:c :a :b])

;; == sort-vectors
(sort [[2 1] [1 2 3] [1 1] [1 0]])

;; == sort-with-compare-reversed
(sort #(compare %2 %1) [3 1 4 1 5 9 2 6])

;; == sort-by-count
(sort-by count ["ccc" "a" "bb"])

;; == sort-by-desc
(sort-by :age > [{:age 30 :n "a"} {:age 50 :n "b"} {:age 40 :n "c"}])

;; == sort-by-compare-comparator
(sort-by :n #(compare %2 %1) [{:n 1} {:n 3} {:n 2}])

;; == sort-by-juxt
(sort-by (juxt :last :first) [{:first "b" :last "x"} {:first "a" :last "y"} {:first "a" :last "x"}])

;; == sort-by-stable
(map :id (sort-by :k [{:k 2 :id 1} {:k 1 :id 2} {:k 2 :id 3} {:k 1 :id 4}]))

;; == sort-by-negated-key
(sort-by #(- (:score %)) [{:score 5} {:score 9} {:score 1}])

;; == sort-map-entries
(sort {:b 2 :a 1 :c 3})

;; == sort-by-val-desc
(sort-by val > {:a 3 :b 9 :c 5})

;; == reverse-fn
[(reverse [1 2 3]) (apply str (reverse "hello"))]

;; == concat-fn
[(concat [1 2] [3] nil [4 5]) (concat)]

;; == into-fn
[(into [] (range 3)) (into [1 2] [3 4]) (into #{} [1 1 2]) (into {} [[:a 1] [:b 2]])]

;; == into-map-from-map
(into {:a 1} {:b 2 :a 3})

;; == range-variants
[(range 5) (range 2 6) (range 0 10 3) (range 10 0 -3) (range 0)]

;; == range-float-step
(range 0 1 0.25)

;; == repeat-count
[(repeat 3 "x") (repeat 0 1)]

;; == zipmap-fn
[(zipmap [:a :b :c] [1 2 3]) (zipmap [:a :b] [1])]

;; == count-fn
[(count [1 2 3]) (count {:a 1}) (count #{}) (count "hello") (count nil)]

;; == vec-vector-set
[(vec (range 3)) (vector 1 2) (vec nil) (count (set [1 2 2 3]))]

;; == subvec-fn
[(subvec [1 2 3 4 5] 1 3) (subvec [1 2 3] 1)]

;; == seq-fn
[(seq [1 2]) (seq []) (seq nil) (seq "")]

;; == not-empty-fn
[(not-empty [1]) (not-empty []) (not-empty "")]

;; == empty-fn
[(empty [1 2]) (empty {:a 1})]

;; == list-fn
(list 1 2 3)

;; == assoc-vector
(assoc [1 2 3] 1 :x)

;; == assoc-vector-append
(assoc [1 2] 2 3)

;; == update-vector
(update [1 2 3] 0 + 10)

;; == count-seq-results
(count (filter odd? (range 101)))

;; == nested-vector-access
(get-in [[1 2] [3 4]] [1 0])

;; == range-vectors-equality
(= (range 3) [0 1 2])

;; == assoc-vector-out-of-range-error !error
(assoc [1 2] 5 :x)

;; == count-number-error !error
(count 5)

;; == first-number-error !error
(first 5)

;; == reduce-number-error !error
(reduce + 5)

;; == apply-non-seq-error !error
(apply + 1)

;; == vec-number-error !error
(vec 5)
