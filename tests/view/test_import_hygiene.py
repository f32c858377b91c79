"""The view-model is plain Python: importing it loads neither Textual nor Rich."""

import subprocess
import sys


def test_view_imports_neither_textual_nor_rich():
    code = ("import sys, ptc_tui.view; "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('textual', 'rich')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
