"""The app's key bindings by id, for the config file's `[keys]` table (rebinding one by its
id, as Textual's keymaps do) and for `ptc-tui config`, which lists them."""

from __future__ import annotations

from textual.binding import Binding
from textual.dom import DOMNode


def app_bindings() -> dict[str, Binding]:
    """Every binding of the app that has an id (id -> binding), from the app, every screen and
    every widget, sorted by id."""
    import ptc_tui.app  # noqa: F401  (defines every screen and widget class)
    found: dict[str, Binding] = {}
    classes = [DOMNode]
    while classes:
        cls = classes.pop()
        classes.extend(cls.__subclasses__())
        if cls.__module__.startswith("ptc_tui."):
            for binding in cls.__dict__.get("BINDINGS", ()):
                if isinstance(binding, Binding) and binding.id:
                    found.setdefault(binding.id, binding)
    return dict(sorted(found.items()))
