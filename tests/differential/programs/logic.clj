;; Comparisons, equality, truthiness, and/or/not.

;; == less-than-chain
[(< 1 2 3) (< 1 3 2) (< 1)]

;; == greater-chain
[(> 3 2 1) (> 3 3) (>= 3 3 2) (<= 1 1 2)]

;; == equality-structures
[(= [1 2] [1 2]) (= {:a 1 :b [1 2]} {:b [1 2] :a 1}) (= #{1 2} #{2 1}) (= "a" "a") (= nil nil)]

;; == equality-variadic
[(= 1 1 1) (= 1 1 2) (not= 1 2) (not= 1 1 1)]

;; == equality-nested-maps
(= {:a {:b [1 {:c "x"}]}} {:a {:b [1 {:c "x"}]}})

;; == and-returns-last
[(and 1 2 3) (and 1 nil 3) (and 1 false nil) (and)]

;; == or-returns-first-truthy
[(or nil 2 3) (or nil false) (or false nil) (or)]

;; == not-values
[(not nil) (not false) (not 0) (not "") (not [])]

;; == truthiness-of-empty
[(if 0 :t :f) (if "" :t :f) (if [] :t :f) (if {} :t :f) (if nil :t :f) (if false :t :f)]

;; == compare-numbers
[(compare 1 2) (compare 2 1) (compare 1 1) (compare 1.5 1)]

;; == compare-strings-adjacent
[(compare "abc" "abd") (compare "b" "a") (compare "x" "x")]

;; == compare-strings-distance
(compare "a" "c")

;; == compare-keywords
[(compare :a :b) (compare :b :a)]

;; == compare-vectors-length-first
[(compare [1 2] [1 3]) (compare [1 2 3] [1 3]) (compare [2] [1 1])]

;; == compare-nil-first
[(compare nil 1) (compare 1 nil) (compare nil nil)]

;; == predicates-types
[(string? "a") (keyword? :a) (map? {}) (vector? []) (set? #{}) (coll? [1]) (coll? "a") (nil? nil) (some? nil) (some? false) (fn? inc) (boolean? false)]

;; == boolean-coercion
[(boolean nil) (boolean false) (boolean 0) (boolean "x")]

;; == true-false-predicates
[(true? true) (true? 1) (false? false) (false? nil)]

;; == identical-keywords
(= :a :a)

;; == empty-predicates
[(empty? []) (empty? nil) (empty? "") (empty? {}) (empty? [1]) (empty? #{})]

;; == every-some-predicates
[(every? pos? [1 2 3]) (every? pos? []) (not-every? pos? [1 -2]) (not-any? neg? [1 2])]

;; == less-than-string-error !error
(< 1 "a")

;; == less-than-nil-error !error
(< nil 1)

;; == sort-mixed-error !error
(sort [1 "a" 2])
