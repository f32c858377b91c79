"""PaneLayout: how the user laid out the main screen (a pane zoomed, code wrapped), kept by the
app so that every trace opened while it runs shows the same; `PaneLayoutActions` gives a trace
screen the keys that change it."""

from __future__ import annotations

from dataclasses import dataclass

from textual.binding import Binding
from textual.widget import Widget

from ptc_tui.widgets import ProgramPanel


@dataclass
class PaneLayout:
    zoomed: str | None = None       # the id of the pane that fills the screen
    wrap_code: bool = False         # the program pane's long lines wrapped, not scrolled


class PaneLayoutActions:
    """`z` zooms the focused pane (Textual's maximize; `z` again or escape restores it), `W`
    wraps the program's long lines; both are remembered in the app's `pane_layout`."""

    LAYOUT_BINDINGS = [
        Binding("z", "zoom", "Zoom", id="view.zoom",
                tooltip="the focused pane fills the screen (tab picks the pane; from the turn "
                "list, the program pane); z again or escape: back"),
        Binding("W", "toggle_wrap_code", "Wrap code", id="view.wrap_code", show=False,
                tooltip="the program's long lines wrapped, each continuation marked ↪; again: "
                "one line each, scrolled sideways"),
    ]

    @property
    def pane_layout(self) -> PaneLayout:
        return self.app.pane_layout

    def on_mount(self) -> None:
        layout = self.pane_layout
        self.query_one(ProgramPanel).set_wrap_code(layout.wrap_code)
        zoomed = self.query(f"#{layout.zoomed}").first() if layout.zoomed else None
        if isinstance(zoomed, Widget):
            self.call_after_refresh(self._zoom, zoomed)

    def _zoom(self, pane: Widget) -> None:
        focusable = pane if pane.focusable else next(
            (w for w in pane.query("*") if w.focusable), None)
        if focusable is not None:
            focusable.focus()
        self.maximize(pane, container=False)

    def action_zoom(self) -> None:
        """The focused pane fills the screen; from the turn list, which is as wide as its
        columns already, the program pane does (the turn's code, the widest need)."""
        if self.maximized is not None:
            self.minimize()
        elif self.focused is not None and not self.maximize(self.focused):
            self._zoom(self.query_one(ProgramPanel))
            self.notify("the turn list is as wide as it needs: zoomed the program pane "
                        "(z: back; tab picks the pane to zoom)")

    def watch_maximized(self, maximized: Widget | None) -> None:
        """Escape restores a zoomed pane too (Textual's own binding): remember either way."""
        self.pane_layout.zoomed = maximized.id if maximized is not None else None

    def action_toggle_wrap_code(self) -> None:
        self.pane_layout.wrap_code = not self.pane_layout.wrap_code
        self.query_one(ProgramPanel).set_wrap_code(self.pane_layout.wrap_code)
