"""All builtins, registered by importing their modules. BUILTINS maps name to Builtin."""

from engine.lisp.builtins import (collections, functions, interop, java_lang, maps,  # noqa: F401
                                  math, output, predicates, regex, sequences, sets,
                                  string_format, strings)
from engine.lisp.builtins.registry import BUILTINS, Builtin

__all__ = ["BUILTINS", "Builtin"]
