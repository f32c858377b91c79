"""The project's own promises: import hygiene, the README commands, the CLI demo."""

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent


LAYERS = ["lisp", "history", "trace", "agent", "llm", "tokens"]
# what each layer may import of the others (architecture: dependencies point one way)
ALLOWED = {"lisp": set(), "history": {"lisp"}, "trace": {"lisp", "history"},
           "agent": {"lisp", "history", "trace", "llm"}, "llm": set(), "tokens": set()}


@pytest.mark.parametrize("layer", LAYERS)
def test_engine_layers_import_only_downward_and_no_ui_library(layer):
    code = (f"import sys, engine.{layer}; "
            "print(' '.join(sorted({m.split('.')[1] for m in sys.modules "
            "if m.startswith('engine.') and m.count('.') >= 1} | "
            "{m for m in ('textual', 'rich', 'opentelemetry') if m in sys.modules})))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    loaded = set(out.stdout.split()) - {layer}
    assert loaded <= ALLOWED[layer], f"engine.{layer} loads {sorted(loaded - ALLOWED[layer])}"


def test_ci_runs_the_readme_test_command():
    readme = (ROOT / "README.md").read_text().splitlines()
    marker = next(i for i, line in enumerate(readme) if "ci: test command" in line)
    command = readme[marker + 1].strip()
    assert "pytest" in command and "pip install" in command
    assert "ci: test command" in (ROOT / ".ci" / "run").read_text()


def test_no_arguments_steps_the_bundled_demo_agent_live(monkeypatch):
    import ptc_tui.launch
    from ptc_tui.cli import main
    opened = []
    monkeypatch.setattr(ptc_tui.launch, "run_app",
                        lambda path=None, session=None, **kw: opened.append(session) or 0)
    assert main([]) == 0
    [session] = opened
    assert session.agent.name == "product-search" and session.turns == []
    assert session.llm.name == "scripted:product_search.py"


def test_the_demo_agent_runs_headless(capsys):
    from ptc_tui.cli import main
    assert main(["run", str(ROOT / "sample_traces" / "product_search.py")]) == 0
    out = capsys.readouterr().out
    assert "turn 3: return" in out and 'returned: ["Laptop" "Monitor"]' in out


def test_lisp_command_reports_errors_without_traceback(tmp_path, capsys):
    from ptc_tui.cli import main
    program = tmp_path / "p.clj"
    program.write_text("(+ 1 (foo))")
    assert main(["lisp", str(program)]) == 1
    out = capsys.readouterr().out
    assert "error unbound_var: undefined symbol: foo at 1:7" in out
    assert "    (+ 1 (foo))\n          ^" in out
    assert "Traceback" not in out
