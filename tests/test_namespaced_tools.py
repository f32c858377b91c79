"""Calls into a host namespace (`incident.evidence/search`, as the reference implementation's
preludes offer them) are calls of the tool of that full name."""

from engine.lisp import run

SEARCH = {"incident.evidence/search": lambda query, limit=None: [query, limit]}


def test_a_namespaced_call_is_a_tool_call_recorded_under_its_full_name():
    r = run('(incident.evidence/search "db" 2)', tools=SEARCH)
    assert r.error is None and r.value == ("db", 2)
    assert [(c.name, c.args) for c in r.tool_calls] == [("incident.evidence/search", ("db", 2))]


def test_a_namespaced_tool_is_a_value_too():
    r = run('(mapv incident.evidence/search ["a" "b"])', tools=SEARCH)
    assert r.value == (("a", None), ("b", None))


def test_a_namespace_nobody_provides_is_still_an_unknown_namespace():
    for source in ("(strng/join 1)", "strng/join", "(__import__/system 1)"):
        r = run(source, tools=SEARCH)
        assert r.error.reason == "invalid_form", source
        assert r.error.message.startswith("unknown namespace "), source


def test_builtin_namespaces_are_not_tools():
    r = run('(clojure.string/join "," [1 2])', tools={"clojure.string/join": lambda *a: "no"})
    assert r.value == "1,2" and r.tool_calls == []
