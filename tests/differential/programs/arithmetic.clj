;; Arithmetic and numeric predicates. No integer `/` (we always give floats), no (= 1 1.0).

;; == add-ints
(+ 1 2 3 4)

;; == add-empty
[(+) (*)]

;; == add-mixed-float
(+ 1 2.5)

;; == float-sum-tolerance
(+ 0.1 0.2)

;; == sub-variants
[(- 5) (- 10 1 2) (- 2.5 1)]

;; == mul-ints-and-floats
[(* 2 3 4) (* 2 3.0) (* 1.5 1.5)]

;; == float-division
[(/ 7.0 2) (/ 1 4.0) (/ 10.0 4 5)]

;; == inc-dec
[(inc 1) (dec 1) (inc 1.5) (dec -1)]

;; == quot-rem-mod-positive
[(quot 17 5) (rem 17 5) (mod 17 5)]

;; == quot-rem-mod-negative
[(quot -17 5) (rem -17 5) (mod -17 5) (mod 17 -5) (rem 17 -5)]

;; == mod-float
[(mod 5.5 2) (rem 7.5 2)]

;; == max-min
[(max 1 5 3) (min 4 2 8) (max 1 2.5) (min -1 -1.5)]

;; == abs-values
[(abs -5) (abs 3) (abs -2.5)]

;; == big-products
[(* 1000000 1000000) (reduce * (range 1 21))]

;; == long-max-plus-zero
(+ 9223372036854775807 0)

;; == int-truncation
[(int 3.7) (long -3.7) (int 2) (long 9.99)]

;; == double-coercion
[(double 5) (double 2.5)]

;; == numeric-predicates
[(zero? 0) (zero? 0.0) (zero? 1) (pos? 3) (pos? -3) (neg? -0.5) (even? 0) (odd? 7) (even? -4)]

;; == type-predicates-numbers
[(number? 1) (number? 1.5) (integer? 1) (integer? 1.0) (double? 1.0) (float? 2.5) (int? 5) (number? "1")]

;; == sum-of-floats-reduce
(reduce + 0.0 [0.1 0.2 0.3 0.4])

;; == average-with-float-division
(let [xs [3 4 5 8]] (/ (double (reduce + xs)) (count xs)))

;; == percent-rounding
(let [x 0.4567] (/ (long (+ 0.5 (* x 1000.0))) 10.0))

;; == bit-operations
[(bit-and 12 10) (bit-or 12 10) (bit-xor 12 10) (bit-shift-left 1 10) (bit-shift-right 1024 3)]

;; == float-times-int-exact
(* 0.5 10)

;; == large-float-value
(* 1.0 123456789012)

;; == small-float-value
(* 1.0 0.00001)

;; == negative-zero-compare
(zero? -0.0)

;; == square-via-reduce
(reduce (fn [acc x] (+ acc (* x x))) 0 (range 1 11))

;; == range-sum-large
(reduce + (range 1000))

;; == numeric-equality-double-equals
[(== 1 1) (== 2 2 2) (== 1 2)]

;; == float-comparison
[(< 0.1 0.2) (> 2.5 2) (<= 1 1.0 2)]

;; == parse-numbers
[(parse-long "42") (parse-long "-7") (parse-double "2.5") (parse-long "4x2")]

;; == add-string-error !error
(+ 1 "a")

;; == inc-nil-error !error
(inc nil)

;; == add-nil-error !error
(+ nil 1)

;; == overflow-add-error !error
(+ 9223372036854775807 1)

;; == overflow-mul-error !error
(* 9223372036854775807 2)

;; == overflow-factorial-error !error
(reduce * (range 1 22))

;; == quot-by-zero-error !error
(quot 1 0)

;; == mod-by-zero-error !error
(mod 5 0)

;; == rem-by-zero-error !error
(rem 5 0)

;; == max-string-error !error
(max "a" "b")
