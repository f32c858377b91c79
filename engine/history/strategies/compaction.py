"""Strategy `compaction` (placeholder until it is written)."""

from engine.history.strategies import register


@register
class Compaction:
    name = "compaction"

    def __init__(self, context, opts):
        self.context, self.opts = context, opts

    def add(self, turn):
        pass

    def render(self, memory):
        raise NotImplementedError
