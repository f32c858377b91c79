;; Threading macros: -> ->> as-> cond-> cond->> some-> some->>.

;; == thread-first-map
(-> {:a 1} (assoc :b 2) (update :a inc) (dissoc :c))

;; == thread-first-bare-symbols
(-> 5 inc (* 2) dec str)

;; == thread-last-pipeline
(->> (range 10) (filter even?) (map #(* % %)) (reduce +))

;; == thread-last-strings
(->> ["b" "a" "c"] sort (map str/upper-case) (str/join ","))

;; == thread-first-nested-get
(-> {:user {:profile {:name "Kim"}}} :user :profile :name)

;; == thread-as
(as-> 5 x (+ x 1) (* x x) (- x 6))

;; == thread-as-mixed-positions
(as-> [1 2 3] v (map inc v) (reduce + v) (str "sum=" v))

;; == cond-thread-first
(cond-> 1 true inc false (* 42) (= 2 2) (* 3))

;; == cond-thread-map
(let [admin? true verbose? false]
  (cond-> {:name "u"} admin? (assoc :role :admin) verbose? (assoc :log true)))

;; == cond-thread-last
(cond->> [1 2 3 4] true (map inc) false (map -) true (filter even?))

;; == some-thread-found
(some-> {:a {:b 5}} :a :b inc)

;; == some-thread-nil
(some-> {:a nil} :a :b inc)

;; == some-thread-last
[(some->> [1 2 3] (map inc) (reduce +)) (some->> nil (map inc))]

;; == thread-inside-fn
(defn clean [s] (-> s str/trim str/lower-case (str/replace #"\s+" "-")))
(clean "  Hello Big World ")

;; == thread-last-with-anon
(->> [3 1 2] (sort >) (map-indexed (fn [i x] [i x])) vec)

;; == thread-first-with-let
(let [m {:count 1}] (-> m (update :count + 10) :count))
