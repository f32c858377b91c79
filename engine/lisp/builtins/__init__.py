"""All builtins, registered by importing their modules. BUILTINS maps name to Builtin."""

from engine.lisp.builtins import math, output, predicates, sequences  # noqa: F401  (registration)
from engine.lisp.builtins.registry import BUILTINS, Builtin

__all__ = ["BUILTINS", "Builtin"]
