"""Finding the program in an LLM reply."""

import pytest

from engine.agent import extract_program, program_spans

CASES = [
    ("one clojure block", "thinking: easy\n```clojure\n(+ 1 2)\n```", "(+ 1 2)"),
    ("lisp tag", "```lisp\n(+ 1 2)\n```", "(+ 1 2)"),
    ("tag with spaces and case", "```Clojure  \n(+ 1 2)\n```", "(+ 1 2)"),
    ("several blocks run in order", "```clojure\n(def a 1)\n```\nthen\n```clojure\n(println a)\n```",
     "(def a 1)\n\n(println a)"),
    ("untagged block starting with (", "```\n(+ 1 2)\n```", "(+ 1 2)"),
    ("other-language block starting with (", "```python\n(1, 2)\n```", "(1, 2)"),
    ("clojure block preferred over others", "```\n(a)\n```\n```clojure\n(b)\n```", "(b)"),
    ("untagged block not starting with ( is ignored", "```\nx = 1\n```", None),
    ("bare s-expression", "  (return 42)  ", "(return 42)"),
    ("prose only", "The answer is 42.", None),
    ("empty clojure block", "```clojure\n```", None),
    ("CRLF line ends", "```clojure\r\n(+ 1\r\n 2)\r\n```", "(+ 1\n 2)"),
    ("smart quotes straightened", "```clojure\n(str “a” ‘b)\n```", "(str \"a\" 'b)"),
    ("zero-width characters removed, odd spaces made plain",
     "```clojure\n(+\u200b 1\u00a02\u2009\ufeff3)\n```", "(+ 1 2 3)"),
    ("#_ kept for the reader", "```clojure\n(+ 1 #_(x) 2)\n```", "(+ 1 #_(x) 2)"),
    ("unterminated fence: whole reply used when it starts with (", "(+ 1 2)\n```", "(+ 1 2)\n```"),
]


@pytest.mark.parametrize("reply, expected", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_extract_program(reply, expected):
    assert extract_program(reply) == expected


@pytest.mark.parametrize("reply, expected", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_program_spans_cover_exactly_the_parts_taken(reply, expected):
    text, spans = program_spans(reply)
    assert text == reply.replace("\r\n", "\n")
    assert bool(spans) == (expected is not None)
    assert all(0 <= a < b <= len(text) for a, b in spans)
    for a, b in spans:                       # a whole fenced block, or the whole reply
        assert text[a:b].startswith("```") and text[a:b].endswith("```") or (a, b) == (0, len(text))


def test_program_spans_skip_blocks_not_taken():
    reply = "```python\n(x)\n```\nthen\n```clojure\n(a)\n```"
    text, [(a, b)] = program_spans(reply)
    assert text[a:b] == "```clojure\n(a)\n```"


def test_program_spans_are_where_the_program_was_found():
    text, spans = program_spans("why:\r\n```json\n{}\n```\n```clojure\n(def a 1)\n```\nso\n"
                                "```clojure\n(a)\n```")
    assert "\r" not in text
    assert [text[s:e] for s, e in spans] == ["```clojure\n(def a 1)\n```", "```clojure\n(a)\n```"]
    assert program_spans("(return 1)") == ("(return 1)", [(0, 10)])
    assert program_spans("no code here") == ("no code here", [])
