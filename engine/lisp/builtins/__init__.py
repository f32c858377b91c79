"""All builtins, registered by importing their modules. BUILTINS maps name to Builtin."""

from engine.lisp.builtins import (collections, comparison, conversion, functions,  # noqa: F401
                                  grouping, interop, maps, math, ordering, output, predicates,
                                  regex, sequences, sets, slicing, string_format, string_replace,
                                  strings, transducers, updates)
from engine.lisp.builtins.registry import BUILTINS, Builtin

__all__ = ["BUILTINS", "Builtin"]
