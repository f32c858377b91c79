;; println / prn output, pr-str and str of nested data. Output is compared as text.

;; == println-multiple-args
(println "a" 1 :k nil true)

;; == println-empty
(println)

;; == println-vector-of-numbers
(println [1 2 [3 4]])

;; == prn-strings-in-vector
(prn ["a" "b"])

;; == println-map
(println {:a 1})

;; == prn-string-in-map
(prn {:name "Ann"})

;; == println-returns-nil
(let [r (println "x")] (nil? r))

;; == prn-readable
(prn "a" [1 "b"] :c nil)

;; == prn-map
(prn {:a "x"})

;; == pr-str-values
[(pr-str "a") (pr-str 1 "b") (pr-str nil) (pr-str [1 "a" :b nil]) (pr-str {:a [1 2]})]

;; == pr-str-nested
(pr-str [{:name "Ann"} {:tags ["x" "y"]} #{[1 "z"]}])

;; == pr-str-escapes
(pr-str "line\nbreak \"q\"")

;; == pr-str-set-single
(pr-str #{:only})

;; == str-vs-pr-str
[(str "a" [1 "b"]) (pr-str "a" [1 "b"])]

;; == println-in-loop-with-format
(doseq [[n q] [["apples" 3] ["kiwis" 12]]] (println (format "%-8s%3d" n q)))

;; == println-inside-map-fn
(mapv (fn [x] (println "item" x) (* x 2)) [1 2 3])

;; == println-inside-reduce
(reduce (fn [acc x] (println "acc" acc "x" x) (+ acc x)) 0 [1 2 3])

;; == println-inside-defn
(defn log-and-inc [x] (println "got" x) (inc x))
(log-and-inc (log-and-inc 1))

;; == prn-numbers
(prn 1 -2 0)

;; == println-keywords-and-symbols
(println :a/b (symbol "sym"))

;; == println-nested-empty
(println [] {} #{})

;; == println-before-error !error
(println "before")
(+ 1 "a")
