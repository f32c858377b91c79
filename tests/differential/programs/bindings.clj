;; let, destructuring (vector, map, nested, :or, :as, & rest), def.

;; == let-sequential
(let [a 1 b (+ a 1) c (* b 10)] [a b c])

;; == let-shadowing
(let [x 1 x (+ x 10)] x)

;; == let-shadow-builtin
(let [count 5 inc 10] (+ count inc))

;; == let-nested
(let [a 1] (let [b 2] (let [a 10] (+ a b))))

;; == let-body-implicit-do
(let [x 5] (println "x is" x) (* x 2))

;; == vector-destructure
(let [[a b c] [1 2 3]] (+ a b c))

;; == vector-destructure-missing
(let [[a b c] [1 2]] [a b c])

;; == vector-destructure-nil
(let [[a b] nil] [a b])

;; == vector-destructure-rest
(let [[a b & more] [1 2 3 4 5]] [a b more])

;; == vector-destructure-rest-count-empty
(let [[a & more] [1]] [a (count more)])

;; == vector-destructure-skip
(let [[_ b _ d] [1 2 3 4]] [b d])

;; == vector-destructure-as
(let [[a b :as all] [1 2 3]] [a b all])

;; == vector-destructure-nested
(let [[a [b c] d] [1 [2 3] 4]] [a b c d])

;; == vector-destructure-string
(let [[a b] "hi"] (str b a))

;; == map-destructure-keys
(let [{:keys [name age]} {:name "Ann" :age 31}] (str name " " age))

;; == map-destructure-or
(let [{:keys [a b] :or {b 10}} {:a 1}] [a b])

;; == map-destructure-or-present-nil
(let [{:keys [a] :or {a 5}} {:a nil}] a)

;; == map-destructure-or-expression
(let [{:keys [a b] :or {b (+ 1 2)}} {:a 1}] (+ a b))

;; == map-destructure-as
(let [{:keys [a] :as m} {:a 1 :b 2}] [a (count m) (:b m)])

;; == map-destructure-rename
(let [{n :name a :age} {:name "Bo" :age 4}] [n a])

;; == map-destructure-nested
(let [{{:keys [city zip]} :address} {:address {:city "Oslo" :zip "0150"}}] [city zip])

;; == map-destructure-vector-value
(let [{[x y] :point} {:point [3 4]}] (+ (* x x) (* y y)))

;; == map-destructure-strs
(let [{:strs [a b]} {"a" 1 "b" 2}] (+ a b))

;; == map-destructure-string-key-rename
(let [{v "value"} {"value" 42}] v)

;; == map-destructure-nil
(let [{:keys [a b]} nil] [a b])

;; == map-destructure-missing-key
(let [{:keys [a z]} {:a 1}] [a z])

;; == vector-of-maps-destructure
(let [[{:keys [a]} {:keys [b]}] [{:a 1} {:b 2}]] (+ a b))

;; == destructure-in-fn-params
((fn [[a b] {:keys [c]}] (+ a b c)) [1 2] {:c 3})

;; == destructure-map-entries
(mapv (fn [[k v]] (str (name k) "=" v)) (sort {:b 2 :a 1}))

;; == rest-kwargs-destructure
(defn opts [x & {:keys [scale offset] :or {scale 1 offset 0}}] (+ offset (* x scale)))
[(opts 5) (opts 5 :scale 2) (opts 5 :offset 1 :scale 3)]

;; == def-and-use
(def rate 0.25)
(def base 200)
(* base rate)

;; == def-fn-value
(def double-it (fn [x] (* 2 x)))
(double-it 21)

;; == let-odd-bindings-error !error
(let [a] a)

;; == unbound-symbol-error !error
(let [x 1] (+ x y))

;; == destructure-vector-from-number-error !error
(let [[a b] 5] a)
