"""PaletteCommands: the command palette's commands: Textual's own, then every binding of the
app and of the screen below the palette, with its keys, then one command per strategy."""

from __future__ import annotations

from collections.abc import Iterable

from textual.app import SystemCommand
from textual.binding import Binding
from textual.keys import format_key
from textual.screen import Screen

from ptc_tui.screens import TraceScreen


class PaletteCommands:
    """Mixed into PtcApp (which gives `BINDINGS`, `_keymap` and `action_compare_with`)."""

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        yield from super().get_system_commands(screen)
        seen = {"quit"}
        for binding in (*self.BINDINGS, *screen.BINDINGS):
            if isinstance(binding, Binding) and binding.id and binding.action not in seen:
                seen.add(binding.action)
                owner = self if binding in self.BINDINGS else screen
                keys = self._keymap.get(binding.id, binding.key)
                yield SystemCommand(binding.description, _help(binding, keys),
                                    lambda a=binding.action, o=owner: o.run_action(a))
        if isinstance(screen, TraceScreen):
            yield SystemCommand("Compare with…", "Compare this trace with another trace file, "
                                "turn by turn", self.action_compare_with)
            for name in screen.strategies:
                yield SystemCommand(f"Strategy: {name}", f"Show the history under {name}",
                                    lambda n=name: screen.set_strategy(n))


def _help(binding: Binding, keys: str) -> str:
    """`Save (ctrl+s)`: the keys as people write them, never Textual's names (`slash`)."""
    shown = " / ".join(format_key(key.strip()) for key in keys.split(","))
    return f"{binding.tooltip or binding.description} ({shown})"
