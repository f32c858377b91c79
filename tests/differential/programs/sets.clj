;; Sets and clojure.set.

;; == set-literal-and-fn
[#{1 2 3} (set [3 3 1]) (hash-set :a :b)]

;; == conj-disj
[(conj #{1 2} 3) (conj #{1 2} 2) (disj #{1 2 3} 2) (disj #{1 2 3} 1 3)]

;; == contains-set
[(contains? #{:a :b} :a) (contains? #{:a} :z) (contains? #{nil} nil)]

;; == set-union
[(set/union #{1 2} #{2 3}) (set/union #{1} #{2} #{3}) (set/union)]

;; == set-intersection
[(set/intersection #{1 2 3} #{2 3 4}) (set/intersection #{1 2} #{3})]

;; == set-difference
[(set/difference #{1 2 3} #{2}) (set/difference #{1 2 3} #{1} #{3})]

;; == set-subset-superset
[(set/subset? #{1 2} #{1 2 3}) (set/subset? #{1 4} #{1 2}) (set/superset? #{1 2 3} #{3})]

;; == set-select
(set/select even? #{1 2 3 4 5 6})

;; == set-rename-keys
(set/rename-keys {:a 1 :b 2} {:a :x})

;; == set-map-invert
(set/map-invert {:a 1 :b 2})

;; == set-index
(set/index #{{:k 1 :v "a"} {:k 2 :v "b"} {:k 1 :v "c"}} [:k])

;; == set-project
(set/project #{{:a 1 :b 2} {:a 1 :b 3}} [:a])

;; == set-join
(set/join #{{:id 1 :name "a"} {:id 2 :name "b"}} #{{:id 1 :dept "x"}})

;; == clojure-set-full-name
(clojure.set/union #{:a} #{:b})

;; == set-sorted-view
(sort #{5 3 9 1})

;; == set-count-and-into
[(count #{1 2 3}) (into #{1} [2 3]) (set/union #{[1 2]} #{[1 2] [3]})]

;; == set-of-maps
(count (set [{:a 1} {:a 1} {:a 2}]))

;; == set-equality
[(= #{1 2} #{2 1}) (= #{} #{}) (= #{1} #{1 2})]

;; == distinct-vs-set
(= (set (distinct [3 1 3 2])) #{1 2 3})

;; == set-filter-membership
(let [allowed #{"a@x.com" "c@x.com"}]
  (filterv #(allowed (:email %)) [{:email "a@x.com"} {:email "b@x.com"} {:email "c@x.com"}]))

;; == set-keyword-difference
(set/difference (set (keys {:a 1 :b 2 :c 3})) #{:b})
