;; fn, defn (multi-arity, variadic, docstrings), closures, recursion, letfn, #(), combinators.

;; == fn-immediate
((fn [x y] (* x y)) 6 7)

;; == defn-basic
(defn square [x] (* x x))
(square 12)

;; == defn-docstring
(defn greet "Says hello." [who] (str "Hello, " who "!"))
(greet "Ada")

;; == defn-multi-arity
(defn area ([s] (area s s)) ([w h] (* w h)))
[(area 3) (area 3 4)]

;; == defn-variadic
(defn total [x & xs] (reduce + x xs))
[(total 1) (total 1 2 3 4)]

;; == variadic-only
(defn collect [& xs] (vec xs))
[(collect) (collect 1 2)]

;; == multi-arity-variadic
(defn f ([] :none) ([a] [:one a]) ([a & more] [:many a (count more)]))
[(f) (f 1) (f 1 2 3)]

;; == named-fn-recursion
((fn fact [n] (if (<= n 1) 1 (* n (fact (dec n))))) 10)

;; == recursion-fib
(defn fib [n] (if (< n 2) n (+ (fib (- n 1)) (fib (- n 2)))))
(mapv fib (range 15))

;; == recursion-on-list
(defn sum-list [xs] (if (empty? xs) 0 (+ (first xs) (sum-list (rest xs)))))
(sum-list [1 2 3 4 5])

;; == recursion-tree-depth
(defn depth [t] (if (vector? t) (inc (reduce max 0 (map depth t))) 0))
(depth [1 [2 [3 [4]] 5] [6]])

;; == closure-adder
(defn make-adder [n] (fn [x] (+ x n)))
(let [add5 (make-adder 5)] [(add5 10) ((make-adder -1) 1)])

;; == closures-capture-loop-values
(let [fs (mapv (fn [i] (fn [] (* i i))) [1 2 3])] (mapv (fn [g] (g)) fs))

;; == closure-over-let
(let [rate 3 f (fn [x] (* rate x))] (let [rate 100] (f 2)))

;; == higher-order-return
(defn twice [g] (fn [x] (g (g x))))
((twice inc) 5)

;; == letfn-simple
(letfn [(dbl [x] (* 2 x))] (dbl 21))

;; == letfn-mutual-recursion
(letfn [(ev? [n] (if (zero? n) true (od? (dec n))))
        (od? [n] (if (zero? n) false (ev? (dec n))))]
  [(ev? 10) (od? 7) (ev? 3)])

;; == anon-fn-percent
(map #(* % %) [1 2 3 4])

;; == anon-fn-numbered
(#(str %1 "-" %2 "-" %1) "a" "b")

;; == anon-fn-rest
(#(apply + %&) 1 2 3 4)

;; == anon-fn-first-and-rest
(#(vector %1 %&) 1 2 3)

;; == anon-fn-swap
(map #(vector %2 %1) [1 2] [:a :b])

;; == apply-basic
[(apply + [1 2 3]) (apply + 1 2 [3 4]) (apply str ["a" "b" "c"]) (apply max [3 9 2])]

;; == apply-merge
(apply merge [{:a 1} {:b 2} {:a 3}])

;; == apply-map-transpose
(apply map vector [[1 2 3] [4 5 6]])

;; == partial-fn
[((partial + 1 2) 3) (map (partial * 10) [1 2 3]) ((partial str "x") "y" "z")]

;; == comp-fn
[((comp str inc) 1) ((comp inc inc inc) 0) ((comp - +) 1 2 3) ((comp) 7)]

;; == comp-keywords
((comp :name :owner) {:owner {:name "Zed"}})

;; == juxt-fn
[((juxt :a :b) {:a 1 :b 2}) (map (juxt identity inc) [1 2]) ((juxt count first) [5 6])]

;; == complement-fn
[((complement even?) 3) (filter (complement nil?) [1 nil 2 false])]

;; == constantly-fn
[((constantly 5)) ((constantly 5) 1 2 3) (map (constantly :x) [1 2])]

;; == every-pred-fn
[((every-pred odd? pos?) 3) ((every-pred odd? pos?) -3) ((every-pred odd? pos?) 3 5 -1)]

;; == some-fn-fn
[((some-fn :a :b) {:b 2}) ((some-fn even? neg?) 3) ((some-fn even? neg?) 3 -1)]

;; == fnil-fn
[((fnil + 0) nil 5) ((fnil inc 0) 4) ((fnil str "none") nil)]

;; == fnil-update
(-> {} (update :n (fnil inc 0)) (update :n (fnil inc 0)) (update :xs (fnil conj []) :a))

;; == identity-fn
[(identity 3) (filter identity [1 nil 2 false 3])]

;; == keyword-as-fn
[(:a {:a 1}) (:b {:a 1}) (:b {:a 1} :default) (:a nil)]

;; == map-as-fn
[({:a 1} :a) ({:a 1} :z) ({:a 1} :z 0)]

;; == set-as-fn
[(#{1 2} 2) (#{1 2} 3) (filter #{:x :y} [:x :z :y])]

;; == fn-returning-map
(defn point [x y] {:x x :y y})
(point 1 2)

;; == fn-arity-error !error
((fn [x] x) 1 2)

;; == defn-arity-error !error
(defn f [a b] a)
(f 1)

;; == undefined-function-error !error
(undefined-fn 1 2)

;; == call-number-error !error
(5 1)

;; == keyword-too-many-args-error !error
(:a {:a 1} 2 3)
