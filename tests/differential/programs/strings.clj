;; Strings, clojure.string, format, name/keyword.

;; == str-concat
[(str "a" "b" "c") (str) (str nil) (str "x" nil "y") (str 42) (str true) (str :kw)]

;; == str-numbers
[(str 1.5) (str 100) (str -3) (str 1 2 3)]

;; == str-of-collections
[(str [1 2 "a"]) (str {:a "x"}) (str [:a [:b]]) (str #{1})]

;; == str-join
[(str/join ", " ["a" "b" "c"]) (str/join [1 2 3]) (str/join "-" []) (str/join "," [nil "a" 1])]

;; == clojure-string-full-name
(clojure.string/join "/" ["usr" "local" "bin"])

;; == str-split-regex
[(str/split "a,b,c" #",") (str/split "a  b   c" #"\s+") (str/split "abc" #"")]

;; == str-split-drops-trailing
(str/split "a,b,,c,," #",")

;; == str-split-keeps-leading
(str/split ",a,b" #",")

;; == str-split-limit
[(str/split "a b c d" #" " 2) (str/split "a,b,," #"," -1)]

;; == str-split-lines
(str/split-lines "one\ntwo\nthree")

;; == str-replace-string
(str/replace "hello world" "o" "0")

;; == str-replace-regex
(str/replace "a1b22c333" #"\d+" "#")

;; == str-replace-groups
(str/replace "2024-01-15" #"(\d+)-(\d+)-(\d+)" "$3/$2/$1")

;; == str-replace-fn
(str/replace "hello world" #"o" (fn [m] (str "<" m ">")))

;; == str-replace-fn-groups
(str/replace "x=1, y=2" #"(\w)=(\d)" (fn [[_ k v]] (str v "=" k)))

;; == str-replace-first
[(str/replace-first "aaa" "a" "b") (str/replace-first "a1b2" #"\d" "_")]

;; == str-trim-variants
[(str/trim "  x y  ") (str/triml "  x  ") (str/trimr "  x  ") (str/trim "\t\nz\n")]

;; == str-case
[(str/upper-case "Hello") (str/lower-case "HeLLo") (str/capitalize "hELLO wORLD") (str/capitalize "")]

;; == str-predicates
[(str/includes? "haystack" "st") (str/starts-with? "prefix" "pre") (str/ends-with? "file.txt" ".txt") (str/blank? "  ") (str/blank? nil) (str/blank? " a ")]

;; == str-index-of
[(str/index-of "abcabc" "c") (str/index-of "abc" "z") (str/index-of "abcabc" "c" 3) (str/last-index-of "abcabc" "b")]

;; == subs-fn
[(subs "hello" 1 3) (subs "hello" 2) (subs "hello" 0 0) (subs "hello" 5)]

;; == str-reverse
(str/reverse "stressed")

;; == count-string
[(count "hello") (count "") (count "naïve")]

;; == string-seq-ops
[(apply str (take 3 "abcdef")) (apply str (filter #(not= % \a) "banana")) (apply str (sort "dcba"))]

;; == string-frequencies-to-str
(->> "mississippi" frequencies (map (fn [[c n]] (str c n))) sort vec)

;; == string-repeat
(apply str (repeat 3 "ab"))

;; == format-basic
(format "%s has %d items" "cart" 3)

;; == format-float-precision
[(format "%.2f" 3.14159) (format "%.0f" 2.4) (format "%.3f" 1.0)]

;; == format-width
[(format "%5s|" "ab") (format "%-5s|" "ab") (format "%5d|" 42) (format "%-4d|" 7)]

;; == format-zero-pad
[(format "%05d" 42) (format "%08.3f" 3.14159)]

;; == format-percent
(format "%.1f%%" 45.678)

;; == format-hex
(format "%x" 255)

;; == format-grouping
(format "%,d" 1234567)

;; == format-keyword-and-vector
[(format "%s" :kw) (format "%s" [1 2])]

;; == format-multiple
(format "%s-%s-%s" 1 "b" :c)

;; == name-and-keyword
[(name :abc) (name "abc") (keyword "abc") (keyword (str "a" "b"))]

;; == namespaced-keyword
[(name :ns/key) (namespace :ns/key) :a/b]

;; == symbol-fn
(str (symbol "abc"))

;; == str-escape-sequences
(str "tab\tnew\nline \"quoted\" back\\slash")

;; == unicode-string
(str/upper-case "grüße ñ")

;; == string-compare-sort
(sort-by str/lower-case ["b" "A" "c"])

;; == join-lines
(str/join "\n" (map #(str "- " %) ["one" "two"]))

;; == string-equality
[(= "abc" (str "a" "bc")) (= "a" "A")]

;; == parse-then-sum
(reduce + (map parse-long (str/split "1,2,3,40" #",")))

;; == str-inline-strings-and-integers
(let [i -7 s "ab"] [(str "k" i) (str s i s) (str i) (str s) (str "a" 1 "b" i "c" s)])

;; == str-inline-other-values
(let [n nil k :kw f 1.5 b false v [1 "a"] m {:a nil}]
  [(str "x" n) (str k) (str "f" f) (str b "-" v) (str "m" m) (str 1 2 3 4 5 6 7 8 9 10)])

;; == str-inline-in-a-loop
(reduce (fn [acc i] (str acc i "," (mod i 3))) "" (range 12))

;; == str-inline-prints-in-order
(str (do (println "a") 1) (do (println "b") "x") nil (do (println "c") :k))

;; == upper-case-nil-error !error
(str/upper-case nil)

;; == subs-bad-index-type-error !error
(subs "abc" "1")

;; == name-nil-error !error
(name nil)

;; == format-d-with-string-error !error
(format "%d" "x")

;; == join-number-error !error
(str/join "," 5)
