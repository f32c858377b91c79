"""The `ptc-tui` command. Until the Textual app lands it runs PTC-Lisp programs headless:
`ptc-tui` runs a bundled demo program, `ptc-tui lisp FILE` runs a program of yours."""

from __future__ import annotations

import argparse
import json
import sys

from engine.lisp import format_value, pr_str, run

DEMO_DATA = {"products": [
    {"name": "Laptop", "category": "electronics", "price": 999.0, "stock": 5},
    {"name": "Phone", "category": "electronics", "price": 599.0, "stock": 0},
    {"name": "Desk", "category": "furniture", "price": 250.0, "stock": 12},
    {"name": "Headphones", "category": "electronics", "price": 199.0, "stock": 8},
]}

DEMO_PROGRAM = """\
(def in-stock (->> data/products
                   (filter #(= (:category %) "electronics"))
                   (filter #(pos? (:stock %)))))
(println "electronics in stock:" (count in-stock))
(doseq [{:keys [name price]} (sort-by :price in-stock)]
  (println (format "%-12s %8.2f" name price)))
(return (mapv :name in-stock))
"""


def show_run(source: str, data=None, out=None) -> int:
    """Run a program and report it; 0 when it ran without error."""
    out = out or sys.stdout
    result = run(source, data=data)
    for line in result.prints:
        print(f"  | {line}", file=out)
    if result.error:
        err = result.error
        print(f"error {err.reason}: {err.message}" + (f" at {err.span}" if err.span else ""),
              file=out)
        excerpt = err.excerpt(source)
        if excerpt:
            print("\n".join("    " + line for line in excerpt.splitlines()), file=out)
        if err.hint:
            print(f"  hint: {err.hint}", file=out)
        return 1
    label = {"return": "returned", "fail": "failed with"}.get(result.signal, "value")
    text, _ = format_value(result.value, limit=20, printable_limit=200)
    print(f"{label}: {text}", file=out)
    for name in sorted(set(result.memory)):
        print(f"  def {name} = {pr_str(result.memory[name], limit=80)}", file=out)
    return 0


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="ptc-tui", description=__doc__)
    sub = parser.add_subparsers(dest="command")
    lisp = sub.add_parser("lisp", help="run a PTC-Lisp program from a file ('-' for stdin)")
    lisp.add_argument("file")
    lisp.add_argument("--data", help="a JSON file whose object is the program's data/")
    args = parser.parse_args(argv)
    try:
        if args.command == "lisp":
            source = sys.stdin.read() if args.file == "-" else open(args.file, encoding="utf-8").read()
            data = json.load(open(args.data, encoding="utf-8")) if args.data else None
            return show_run(source, data)
        print("PTC-Lisp demo program:\n")
        print(DEMO_PROGRAM)
        return show_run(DEMO_PROGRAM, DEMO_DATA)
    except (OSError, ValueError, UnicodeDecodeError) as e:
        print(f"ptc-tui: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
