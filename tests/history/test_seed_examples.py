"""The seeds' worked examples, as the whole USER message `coalesced` sends.

Where a seed example disagrees with the settled rules (docs/history-rules.md) the expected
text follows the rules, and the test says how: the seeds cut sample strings at 30-32
characters where the rules' limit is 80, write samples in Elixir syntax (`%{name: ...}`) where SAM-003 asks for
Clojure, and leave out the `; Tool calls:` section that FMT-001/003 require.
"""

import pytest

from tests.history.rendering import MISSION, coalesced

REVIEWS = ("Customer Review Summary for Electronics: Laptop: Average rating 4.5/5. "
           "Mouse: Average rating 3.2/5. Keyboard: 4.8/5.")
INVENTORY = "Warehouse Inventory Report (as of Monday): Laptop - 23 units in stock. Mouse - OUT."
SEED_TOOLS = {"search-reviews": lambda category: REVIEWS, "get-inventory": lambda: INVENTORY}
TOOLS_SECTION = ';; Tool calls:\n;   search-reviews("Electronics")\n;   get-inventory()'[1:]


def message(summary: str, turns_left: str = "Turns left: 4") -> str:
    return f"{MISSION}\n\n{summary}\n\n{turns_left}"


def test_000_exploration_mode_shows_samples():
    text = coalesced(['(def reviews (tool/search-reviews "Electronics"))\n'
                      '(def inventory (tool/get-inventory))'], tools=SEED_TOOLS)
    assert text == message(
        TOOLS_SECTION + "\n"
        '; Defined: reviews = string, sample: "Customer Review Summary for Electronics: Laptop: '
        'Average rating 4.5/5. Mouse: Av..."\n'
        '; Defined: inventory = string, sample: "Warehouse Inventory Report (as of Monday): '
        'Laptop - 23 units in stock. Mouse - O..."')


def test_000_explicit_mode_shows_output_instead():
    tools = {"search-reviews": lambda c: "Customer Review Summary for Electronics...",
             "get-inventory": lambda: "Warehouse Inventory Report..."}
    text = coalesced(['(def reviews (tool/search-reviews "Electronics"))\n'
                      "(def inventory (tool/get-inventory))\n"
                      '(println "Reviews:" reviews)\n(println "Inventory:" inventory)'],
                     tools=tools)
    assert text == message(
        TOOLS_SECTION + "\n"
        "; Defined: reviews = string\n"
        "; Defined: inventory = string\n"
        "; Output:\n"
        "Reviews: Customer Review Summary for Electronics...\n"
        "Inventory: Warehouse Inventory Report...")


def test_000_data_samples_are_critical():
    products = " ".join(f'{{:name "{n}" :price {p} :category "{c}"}}' for n, p, c in [
        ("Laptop", 1200, "Electronics"), ("Mouse", 25, "Electronics"), ("Desk", 300, "Office"),
        ("Chair", 150, "Office"), ("Monitor", 400, "Electronics"), ("Lamp", 40, "Home"),
        ("Keyboard", 80, "Electronics")])
    text = coalesced([f"(def products [{products}])"])
    # maps in a sample keep min(3, 80 // 30) = 2 entries, keys sorted (docs/ptc-lisp-rules.md)
    assert text == message(
        "; No tool calls made\n"
        '; Defined: products = list[7], sample: [{:category "Electronics" :name "Laptop" ...} '
        '{:category "Electronics" :name "Mouse" ...} {:category "Office" :name "Desk" ...} ...] '
        "(7 items, showing first 3)")


def test_000_summary_with_docstrings():
    text = coalesced(['(defn fetch-users "Fetches users by category, returns list of user maps" '
                      "[category] [{:name \"Alice\" :email \"a@x\"}])\n"
                      '(def users "Active users from API" (fetch-users "admin"))\n'
                      '(defn helper-fn [x] x)\n(println "Found" (count users) "users")'])
    assert text == message(
        "; No tool calls made\n"
        '; Function: fetch-users - "Fetches users by category, returns list of user maps"\n'
        "; Function: helper-fn\n"
        '; Defined: users - "Active users from API" = list[1]\n'
        "; Output:\nFound 1 users")


USERS = ('[{:name "Alice" :email "alice@example.com"} {:name "Bob" :email "bob@example.com"} '
         '{:name "Cy" :email "cy@example.com"} {:name "Di" :email "di@example.com"} '
         '{:name "Ed" :email "ed@example.com"}]')

EDGE_CASES = [
    pytest.param(["(def x 1)\n(def x 2)"],
                 "; No tool calls made\n; Defined: x = integer, sample: 2",
                 id="003-1-redefinition-within-a-turn-DEF-001"),
    pytest.param(["(def x 1)", "(def x [1 2 3])"],
                 "; No tool calls made\n; Defined: x = list[3], sample: [1 2 3]",
                 id="003-2-redefinition-across-turns-DEF-002"),
    pytest.param([f"(def users {USERS})"],
                 "; No tool calls made\n; Defined: users = list[5], sample: "
                 '[{:email "alice@example.com" :name "Alice"} {:email "bob@example.com" '
                 ':name "Bob"} {:email "cy@example.com" :name "Cy"} ...] (5 items, showing first 3)',
                 id="003-3-no-println-sample"),
    pytest.param([f'(def users {USERS})\n(println "Found" (count users) "users")'],
                 "; No tool calls made\n; Defined: users = list[5]\n; Output:\nFound 5 users",
                 id="003-3-println-output"),
    pytest.param(["(def items [])\n(def data {})"],
                 "; No tool calls made\n; Defined: items = list[0]\n; Defined: data = map[0]",
                 id="003-9-empty-collections"),
    pytest.param(['(def config "Config; see README; important" {})'],
                 '; No tool calls made\n; Defined: config - "Config see README important" = map[0]',
                 id="003-10-docstring-semicolons-DEF-007"),
]


@pytest.mark.parametrize("programs, summary", EDGE_CASES)
def test_003_edge_cases(programs, summary):
    left = f"Turns left: {5 - len(programs)}"
    assert coalesced(programs) == message(summary, left)


def test_003_5_consecutive_identical_calls():
    # a turn that printed: the seed's exact lines, no result types
    text = coalesced(['(tool/notify "Alice")\n(tool/notify "Alice")\n(tool/notify "Alice")\n'
                      '(tool/notify "Bob")\n(println "sent")'])
    assert text == message('; Tool calls:\n;   notify("Alice") x3\n;   notify("Bob")\n'
                           "; Output:\nsent")


def test_003_5_consecutive_identical_calls_with_result_types():
    text = coalesced(['(tool/notify "Alice") (tool/notify "Alice") (tool/notify "Alice") '
                      '(tool/notify "Bob")'])
    assert text == message('; Tool calls:\n;   notify("Alice") x3 -> nil\n'
                           ';   notify("Bob") -> nil')


def test_003_6_single_shot_ignores_the_option():
    from tests.history.rendering import request
    messages, _, _ = request("coalesced", ["(def x 1)"], max_turns=1)
    assert messages[1] == {"role": "user", "content": MISSION}


def test_003_7_fifo_println_keeps_the_last_three():
    text = coalesced(['(println "output1") (println "output2")', '(println "output3")',
                      '(println "output4") (println "output5")'], println_limit=3)
    assert text == message("; No tool calls made\n; Output:\noutput3\noutput4\noutput5",
                           "Turns left: 2")


def test_003_8_failed_turn_recovery():
    text = coalesced(['(def reviews (tool/search-reviews "Electronics"))',
                      "(def broken (invalid syntax"])
    assert text == (
        f"{MISSION}\n\n"
        '; Tool calls:\n;   search-reviews("Electronics")\n'
        '; Defined: reviews = string, sample: "Customer Review Summary for Electronics"\n\n'
        "---\nYour previous attempt:\n```clojure\n(def broken (invalid syntax\n```\n\n"
        "Error: parse_error: unbalanced parentheses: 2 unclosed '(' opened at 1:1 "
        "(hint: add )) at the end of the form)\n---\n\n"
        "Turns left: 3")


def test_002_TC_008_example_foo_x5():
    text = coalesced(['(dotimes [_ 5] (tool/f "bar")) (println "done")'])
    assert ';   f("bar") x5\n' in text
