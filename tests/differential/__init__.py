"""Differential tests: the same programs run through our engine and through real Clojure 1.11."""
