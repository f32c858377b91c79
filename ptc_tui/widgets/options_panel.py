"""OptionsPanel: live tuning of every history option; each valid change posts the new options."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.message import Message
from textual.validation import ValidationResult, Validator
from textual.widgets import Button, Input, Label, Select, Static

from engine.history import HistoryOpts
from ptc_tui.view.options import BY_NAME, FIELDS, OptionField


def field_id(name: str) -> str:
    """The CSS id of an option's row: `println_limit` → `option-println-limit`."""
    return "option-" + name.replace("_", "-")


class FieldCheck(Validator):
    """Gives a number input its invalid style by the same rule the panel parses it with."""

    def __init__(self, field: OptionField) -> None:
        super().__init__()
        self.field = field

    def validate(self, value: str) -> ValidationResult:
        try:
            self.field.parse(value)
        except ValueError as e:
            return self.failure(str(e))
        return self.success()


class OptionsPanel(VerticalScroll):
    """One row per `HistoryOpts` field: a Select for choices, an integer Input between −/+
    buttons for counts (up/down in the input step it too), a help line and an error line.

    A panel mounted hidden makes its rows when `make_rows` is called (the trace screen hides it
    until `o`). Until then it is one widget, not a hundred: every widget on a screen costs
    something on each key (Textual's and the test pilot's walks over the DOM)."""

    DEFAULT_CSS = """
    OptionsPanel {
        dock: right;
        width: 44;                     /* the longest name, −, a value and + */
        height: 1fr;
        border: round $primary-muted;
        border-title-color: $text;
        padding: 0 1;
        .option { height: auto; margin-bottom: 1; }
        .control { height: 1; }
        .name { width: 23; }
        Select { width: 1fr; }
        Input { width: 8; }
        Button { width: 3; min-width: 3; }
        .help { color: $text-muted; }
        .error { color: $text-error; display: none; }
        .error.-shown { display: block; }
    }
    """

    BINDINGS = [
        Binding("up", "step(1)", "Option +", id="options.more", show=False),
        Binding("down", "step(-1)", "Option −", id="options.less", show=False),
    ]

    class Changed(Message):
        """The user changed an option: `opts` are the options now in force."""

        def __init__(self, panel: "OptionsPanel", opts: HistoryOpts) -> None:
            super().__init__()
            self.panel = panel
            self.opts = opts

        @property
        def control(self) -> "OptionsPanel":
            return self.panel

    def __init__(self, opts: HistoryOpts, **kwargs) -> None:
        super().__init__(**kwargs)
        self.opts = opts
        self.posted: list[HistoryOpts] = []     # changes posted that no show_opts echoed yet
        self.border_title = "Options"
        self.rows_made = False

    async def make_rows(self) -> None:
        """Compose the rows, once (the panel shows them with `self.opts` then)."""
        if not self.rows_made:
            self.rows_made = True
            await self.recompose()

    async def on_mount(self) -> None:
        self.app.theme_changed_signal.subscribe(self, lambda _: self._show_focus())
        if self.display:
            await self.make_rows()

    def on_unmount(self) -> None:
        self.app.theme_changed_signal.unsubscribe(self)

    def on_descendant_focus(self) -> None:
        self._show_focus()

    def on_descendant_blur(self) -> None:
        self._show_focus()

    def _show_focus(self) -> None:
        """The border in $primary while the focus is in the panel. Not a `:focus-within`
        rule: with one, Textual matches the styles of the panel's hundred widgets again at
        every change of focus into, out of or within it (about 90 ms a time)."""
        colour = self.app.theme_variables["primary" if self.has_focus_within else "primary-muted"]
        self.styles.border = ("round", colour)

    def compose(self) -> ComposeResult:
        if not self.rows_made:
            return
        for field in FIELDS:
            with Vertical(classes="option", id=field_id(field.name)):
                with Horizontal(classes="control"):
                    yield Label(field.name, classes="name", markup=False)
                    yield from self._control(field)
                yield Static(field.help, classes="help", markup=False)
                yield Static("", classes="error", markup=False)

    def _control(self, field: OptionField) -> ComposeResult:
        value = getattr(self.opts, field.name)
        if field.kind == "choice":
            yield Select([(c, c) for c in field.choices], value=value, allow_blank=False,
                         name=field.name, compact=True)
            return
        less, more = (Button(label, name=field.name, classes=kind, compact=True)
                      for label, kind in (("−", "less"), ("+", "more")))
        for button in (less, more):
            button.can_focus = False            # tab goes field to field; up/down step
            button.active_effect_duration = 0   # else clicks during the flash are dropped
        yield less
        optional = field.kind == "optional"
        yield Input(field.show(value), type="integer", name=field.name, compact=True,
                    placeholder="off" if optional else "", valid_empty=optional,
                    validators=[FieldCheck(field)])
        yield more

    # --- updates ------------------------------------------------------------------------------
    def show_opts(self, opts: HistoryOpts) -> None:
        """Show `opts` in the controls without posting (they were changed elsewhere). The echo
        of one of this panel's own changes is ignored: the controls are already ahead of it."""
        if opts in self.posted:
            del self.posted[:self.posted.index(opts) + 1]
            return
        self.posted.clear()
        old, self.opts = self.opts, opts
        if not self.children:         # no rows yet: make_rows will show `opts`
            return
        with self.prevent(Input.Changed, Select.Changed):
            for field in FIELDS:
                value = getattr(opts, field.name)
                if value == getattr(old, field.name):
                    continue          # leave what the user may be typing there alone
                row = self.query_one(f"#{field_id(field.name)}")
                if field.kind == "choice":
                    row.query_one(Select).value = value
                else:
                    row.query_one(Input).value = field.show(value)
                self._show_error(field.name, "")

    def _apply(self, name: str, value) -> None:
        try:
            new = self.opts.with_changes(**{name: value})
        except ValueError as e:
            self._show_error(name, str(e))
            return
        self._show_error(name, "")
        if new != self.opts:
            self.opts = new
            self.posted.append(new)
            self.post_message(self.Changed(self, new))

    def _show_error(self, name: str, message: str) -> None:
        error = self.query_one(f"#{field_id(name)} .error", Static)
        error.update(message)
        error.set_class(bool(message), "-shown")

    def _step(self, name: str, direction: int) -> None:
        field = BY_NAME[name]
        value = field.stepped(getattr(self.opts, name), direction)
        self._apply(name, value)
        shown = field.show(getattr(self.opts, name))
        self.query_one(f"#{field_id(name)} Input", Input).value = shown

    # --- events -------------------------------------------------------------------------------
    def on_select_changed(self, event: Select.Changed) -> None:
        event.stop()
        if event.select.name in BY_NAME and event.value != Select.NULL:
            self._apply(event.select.name, event.value)

    def on_input_changed(self, event: Input.Changed) -> None:
        event.stop()
        name = event.input.name
        if name not in BY_NAME:
            return
        try:
            value = BY_NAME[name].parse(event.value)
        except ValueError as e:
            self._show_error(name, str(e))
            return
        self._apply(name, value)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.name in BY_NAME:
            self._step(event.button.name, -1 if event.button.has_class("less") else 1)

    def action_step(self, direction: int) -> None:
        focused = self.screen.focused
        if isinstance(focused, Input) and focused.name in BY_NAME:
            self._step(focused.name, direction)
        elif direction > 0:
            self.scroll_up()
        else:
            self.scroll_down()
