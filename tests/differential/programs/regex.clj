;; Regular expressions: re-find, re-matches, re-seq, re-pattern.

;; == re-find-simple
[(re-find #"\d+" "ab12cd34") (re-find #"\d+" "none")]

;; == re-find-groups
(re-find #"(\w+)@(\w+)\.com" "mail: bob@site.com today")

;; == re-find-optional-group
(re-find #"(a)?b" "b")

;; == re-find-case-insensitive
(re-find #"(?i)hello" "Say HeLLo")

;; == re-find-named-group
(re-find #"(?<year>\d{4})-(?<month>\d{2})" "on 2024-03-01")

;; == re-matches-whole
[(re-matches #"\d+" "123") (re-matches #"\d+" "123a") (re-matches #"[a-z]+" "abc")]

;; == re-matches-groups
(re-matches #"(\d+)-(\d+)" "12-34")

;; == re-seq-simple
(re-seq #"\d+" "a1b22c333")

;; == re-seq-groups
(re-seq #"(\w)(\d)" "a1 b2 c3")

;; == re-seq-words
(re-seq #"\w+" "Hello, big world!")

;; == re-seq-count-none
(count (re-seq #"z" "abc"))

;; == re-pattern-fn
(re-find (re-pattern "\\d{3}") "ab1234")

;; == re-pattern-built
(let [word "cat"] (count (re-seq (re-pattern (str "\\b" word "\\b")) "cat concat cat")))

;; == regex-split-filter
(filterv seq (str/split "a1b2c3" #"\d"))

;; == regex-anchors-multiline
(re-seq #"(?m)^\w+" "one two\nthree four\nfive")

;; == regex-extract-numbers
(->> (re-seq #"-?\d+" "x=-3, y=14, z=0") (map parse-long) (reduce +))

;; == regex-email-validation
(mapv #(boolean (re-matches #"[^@\s]+@[^@\s]+\.[a-z]+" %)) ["a@b.com" "bad" "x@y.org" "a b@c.com"])

;; == regex-lookahead
(re-find #"\d+(?=px)" "width: 100px")

;; == regex-backreference
(re-find #"(\w)\1" "abccd")

;; == regex-greedy-vs-lazy
[(re-find #"<.+>" "<a><b>") (re-find #"<.+?>" "<a><b>")]
