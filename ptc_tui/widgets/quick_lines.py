"""QuickLines: a bordered pane's content rows put together without Textual's styles pipeline.

Textual draws each row of a widget through its styles: border, padding, tint, opacity and the
colours they need, worked out again for every row (about 60 µs a row here). A jump to another
turn redraws some 180 rows of the trace screen's panes, and that was a third of the key. Yet
the rows between a pane's top and bottom borders differ only in their content: the border and
padding cells at either end are the same on every one. So Textual draws the first content row
(the `template`), and every other content row is the pane's own line (its `render_line`, with
the app's line filters, as Textual applies them) between that row's cells before the content
(`head`) and after it (`tail`). The border rows are Textual's own, as is every row of a pane
styled with what this does not repeat: tint, opacity, text opacity, hatch, an outline or a
hovered link. Tests compare the two ways, cell by cell."""

from __future__ import annotations

from textual.geometry import Region
from textual.strip import Strip


class QuickLines:
    """Mixed in before a ScrollView whose every content row (`render_line`) is as wide as the
    first one; a pane whose rows differ in width is drawn by Textual."""

    _edges: tuple[Strip, Strip] | None = None      # the head and tail last cut
    _rows: dict[int, tuple[Strip, Strip]] | None = None   # y -> (filtered line, row made)

    def render_lines(self, crop: Region) -> list[Strip]:
        width, height = self.region.size
        gutter = self.styles.gutter
        content_width, content_height = self.content_region.size
        first = gutter.top                                   # the template: content row 0
        end = min(height - gutter.bottom, first + content_height)
        quick = range(max(crop.y, first + 1), min(crop.bottom, end))   # the rows made here
        if not quick or not self._plain_styles():
            return super().render_lines(crop)
        content = min(self.render_line(0).cell_length, content_width)
        lines = self._filtered_lines(quick, first, content_width)
        if any(line.cell_length != content for line in lines):
            return super().render_lines(crop)
        # Textual's rows: those from the crop's top to the template, and those after
        before = super().render_lines(Region(0, min(crop.y, first), width,
                                             first + 1 - min(crop.y, first)))
        head, tail = self._cut_edges(before[-1], gutter.left, content)
        if crop.y > first:
            before = []
        after = super().render_lines(Region(0, quick.stop, width, crop.bottom - quick.stop)) \
            if crop.bottom > quick.stop else []
        strips = before + self._made_rows(quick, lines, head, tail, width) + after
        if crop.column_span != (0, width):
            strips = [strip.crop(crop.x, crop.right) for strip in strips]
        return strips

    def _plain_styles(self) -> bool:
        """Whether the styles draw every content row's edges alike (those this repeats)."""
        styles = self.styles
        return (not styles.tint.a and self.opacity == 1 and styles.text_opacity == 1
                and not any(edge for edge, _ in styles.outline)
                and not (styles.has_rule("hatch") and styles.hatch != "none")
                and not (self.auto_links and self.hover_style.link_id))

    def _filtered_lines(self, rows: range, first: int, content_width: int) -> list[Strip]:
        """Each row's line, cut to `content_width` (as Textual cuts it), filtered."""
        filters = self.get_line_filters()
        background = self.background_colors[1]
        lines = []
        for y in rows:
            line = self.render_line(y - first)
            if line.cell_length > content_width:
                line = line.crop(0, content_width)
            for line_filter in filters:
                line = line.apply_filter(line_filter, background)
            lines.append(line)
        return lines

    def _cut_edges(self, template: Strip, left: int, content: int) -> tuple[Strip, Strip]:
        """The template's cells before the content and after its `content` cells, the ones
        last cut where they are the same (so that rows made before can be kept)."""
        edges = (template.crop(0, left), template.crop(left + content, template.cell_length))
        if edges != self._edges:
            self._edges, self._rows = edges, {}
        return self._edges

    def _made_rows(self, rows: range, lines: list[Strip], head: Strip, tail: Strip,
                   width: int) -> list[Strip]:
        """Each row: its line between the edges; the same row object as last time for the same
        line (so that Textual's compositor finds it cut up already)."""
        made = []
        kept = self._rows
        for y, line in zip(rows, lines):
            found = kept.get(y)
            if found is None or found[0] is not line:
                found = kept[y] = (line, Strip([*head, *line, *tail], width))
            made.append(found[1])
        return made
