"""SteadyScroll: for a scrolling pane whose own size its container sets (`1fr`), a change of
its content's size redraws the pane and its scrollbars without laying out the whole screen
again. Textual lays out every widget of the screen when any widget's virtual size changes;
on the trace screen that was most of a key press (each turn's program, messages and memory
differ in length)."""

from __future__ import annotations

from textual.geometry import Size
from textual.reactive import Reactive


class SteadyScroll:
    """Mixed in before a ScrollView (TextPanel, a DataTable)."""

    # Textual's own asks for a layout (layout=True); and no redraw either: the pane redraws
    # the rows that changed
    virtual_size = Reactive(Size(0, 0), repaint=False)

    def watch_virtual_size(self, size: Size) -> None:
        scrollbars = (self.show_vertical_scrollbar, self.show_horizontal_scrollbar)
        self._scroll_update(size)             # the scrollbars' thumbs, the scroll kept in range
        if (self.show_vertical_scrollbar, self.show_horizontal_scrollbar) != scrollbars:
            self.refresh(layout=True)         # a scrollbar appears or goes: lay out after all
