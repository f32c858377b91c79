"""SteadyFooter: Textual's Footer, made again only when the keys it shows change.

Textual's Footer recomposes on every change of the screen's bindings, and focus moving is one:
its keys are unmounted and mounted again and the whole screen is laid out anew. A `tab` from
one pane to the next sent two such changes, about 200 ms of CPU for a footer that showed the
same keys before and after. This one compares what it would show with what it shows."""

from __future__ import annotations

from textual.widgets import Footer


class SteadyFooter(Footer):
    _shown: tuple | None = None         # what the last composition showed

    def _showing(self) -> tuple:
        """Everything Footer.compose reads to lay out its keys."""
        if not self._bindings_ready:
            return ()
        active = self.screen.active_bindings
        keys = tuple((binding, enabled, tooltip)
                     for _, binding, enabled, tooltip in active.values() if binding.show)
        palette = active.get(self.app.COMMAND_PALETTE_BINDING)
        return (keys, palette and palette[1:], self.compact, self.show_command_palette,
                self.app.ENABLE_COMMAND_PALETTE)

    async def recompose(self) -> None:
        if not self.is_attached or self._pruning:      # as Widget.recompose: gone meanwhile
            return
        showing = self._showing()
        if showing == self._shown:
            return
        self._shown = showing
        await super().recompose()
