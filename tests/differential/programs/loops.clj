;; loop/recur, dotimes, doseq and for with their modifiers.

;; == loop-sum
(loop [i 0 acc 0] (if (< i 10) (recur (inc i) (+ acc i)) acc))

;; == loop-build-vector
(loop [i 0 acc []] (if (= i 5) acc (recur (inc i) (conj acc (* i i)))))

;; == loop-destructure
(loop [[x & xs] [1 2 3 4] acc 0] (if x (recur xs (+ acc x)) acc))

;; == loop-gcd
(defn gcd [a b] (loop [a a b b] (if (zero? b) a (recur b (mod a b)))))
[(gcd 48 18) (gcd 17 5) (gcd 100 75)]

;; == fn-recur
(defn count-down [n acc] (if (zero? n) acc (recur (dec n) (conj acc n))))
(count-down 5 [])

;; == loop-collatz
(loop [n 27 steps 0] (if (= n 1) steps (recur (if (even? n) (quot n 2) (inc (* 3 n))) (inc steps))))

;; == loop-digits
(loop [n 90817 digits []] (if (zero? n) digits (recur (quot n 10) (cons (rem n 10) digits))))

;; == loop-recur-not-tail-error !error
(loop [i 0] (if (< i 3) (+ 1 (recur (inc i))) i))

;; == dotimes-print
(dotimes [i 3] (println "i =" i))

;; == doseq-print
(doseq [x [:a :b :c]] (println x))

;; == doseq-returns-nil
(doseq [x [1 2]] (* x 2))

;; == doseq-nested
(doseq [x [1 2] y ["a" "b"]] (println x y))

;; == doseq-destructure
(doseq [[k v] (sort {:b 2 :a 1 :c 3})] (println (name k) "->" v))

;; == doseq-let-when
(doseq [x (range 6) :let [y (* x x)] :when (odd? x)] (println x y))

;; == doseq-while
(doseq [x [1 2 3 10 4] :while (< x 5)] (println x))

;; == doseq-over-map-sorted-keys
(let [m {:x 1 :y 2}] (doseq [k (sort (keys m))] (println k (get m k))))

;; == for-basic
(for [x [1 2 3]] (* x 10))

;; == for-nested
(for [x [1 2] y [:a :b]] [x y])

;; == for-when
(for [x (range 10) :when (even? x)] x)

;; == for-let
(for [x [1 2 3] :let [y (* x x) z (+ y 1)]] [x y z])

;; == for-while
(for [x [1 2 3 4 1] :while (< x 3)] x)

;; == for-while-inner
(for [x [1 2 3] y [1 2 3] :while (< y x)] [x y])

;; == for-combined-modifiers
(for [x (range 1 6) :let [sq (* x x)] :when (odd? x) y [0 1] :when (pos? (+ sq y))] (+ sq y))

;; == for-destructure-sorted-map
(for [[k v] (sort-by key {:b 2 :a 1})] (str (name k) v))

;; == for-dependent-ranges
(for [i (range 4) j (range i)] [i j])

;; == for-into-map
(into {} (for [x ["a" "bb" "ccc"]] [x (count x)]))

;; == for-empty
(vec (for [x [] ] x))

;; == pythagorean-triples
(for [a (range 1 20) b (range a 20) c (range b 20) :when (= (+ (* a a) (* b b)) (* c c))] [a b c])

;; == loop-integer-counters
[(loop [i 0 acc 0] (if (< i 100) (recur (inc i) (+ acc (* i i))) acc))
 (loop [i 10 n 0] (if (zero? i) n (recur (dec i) (+ n (mod i 3)))))
 (loop [x 1] (if (< x 100) (recur (* x (count [1 2 3]))) x))]

;; == loop-counter-that-becomes-a-float
[(loop [i 0] (if (< i 3) (recur (+ i 0.5)) i))
 (loop [i 0 j i] (if (< i 3) (recur (+ i 1.5) j) [i j]))
 (loop [i 0 acc 0] (if (< i 10) (recur (inc i) (+ acc 0.5)) acc))]

;; == loop-integer-counter-overflows !error
(loop [i 0 x 1] (if (< i 70) (recur (inc i) (* x 2)) x))

;; == loop-integer-sum-overflows !error
(loop [i 0 a 4611686018427387904] (if (< i 3) (recur (inc i) (+ a a)) a))
