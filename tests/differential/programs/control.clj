;; if/when/cond/condp/case/if-let/when-let/if-some, do.

;; == if-basic
[(if true 1 2) (if false 1 2) (if nil 1) (if-not false :a :b)]

;; == when-forms
[(when true :yes) (when false :yes) (when-not false :no) (when (pos? 1) 1 2 3)]

;; == when-prints
(when (> 3 1) (println "three is bigger") :done)

;; == cond-basic
(defn grade [n] (cond (>= n 90) "A" (>= n 80) "B" (>= n 70) "C" :else "F"))
(mapv grade [95 85 75 10])

;; == cond-no-match
(cond false 1 nil 2)

;; == condp-equals
(defn word [n] (condp = n 1 "one" 2 "two" "many"))
(mapv word [1 2 3])

;; == condp-less-than
(defn size [n] (condp < n 100 :huge 10 :big :small))
(mapv size [500 50 5])

;; == condp-arrow
(condp some [1 2 3] #{0 6} :>> inc #{3 4} :>> (fn [x] (* x 100)) :none)

;; == case-keywords
(defn color [k] (case k :red "#f00" :green "#0f0" "unknown"))
(mapv color [:red :green :blue])

;; == case-strings
(case "b" "a" 1 "b" 2 3)

;; == case-numbers-grouped
(defn kind [n] (case n (1 2 3) :small (4 5 6) :medium :large))
(mapv kind [2 5 9])

;; == case-vector-constant
(case [1 2] [1 2] :pair [3 4] :other :none)

;; == case-nil-constant
(case nil nil :nothing :something)

;; == if-let-found
(if-let [x (get {:a 5} :a)] (* x 2) :missing)

;; == if-let-not-found
(if-let [x (get {:a 5} :b)] (* x 2) :missing)

;; == if-let-no-else
(if-let [x nil] x)

;; == if-let-destructure
(if-let [[a b] (seq [1 2])] (+ a b) 0)

;; == when-let-basic
[(when-let [x (first [7 8])] (inc x)) (when-let [x (first [])] (inc x))]

;; == when-let-destructure-map
(when-let [{:keys [a b]} {:a 1 :b 2}] (+ a b))

;; == if-some-false
[(if-some [x false] [:some x] :none) (if-some [x nil] [:some x] :none)]

;; == when-some-basic
[(when-some [x 0] (inc x)) (when-some [x nil] (inc x))]

;; == do-returns-last
(do (println "first") (println "second") 3)

;; == nested-ifs
(defn sign [n] (if (pos? n) :pos (if (neg? n) :neg :zero)))
(mapv sign [-2 0 3])

;; == case-no-match-error !error
(case 5 1 :a 2 :b)

;; == condp-no-match-error !error
(condp = 5 1 :a 2 :b)

;; == if-too-few-error !error
(if)

;; == when-let-two-bindings-error !error
(when-let [x 1 y 2] x)
