"""A saved trace's long lists found in its bytes (lazy_json.split_lists) and decoded and parsed
an item at a time: the same items and the same rest as parsing it whole; any other layout left
to be parsed whole; a broken item a TraceError naming the file, the item and its place when it
is reached, and the file's bytes let go once every item is made."""

import json

import pytest

from benchmarks.long_trace import long_trace
from engine.agent.open_trace import open_trace
from engine.trace import TraceError, dumps_trace, load_trace, save_trace
from engine.trace.lazy_json import LazyItems, split_lists

KEYS = ("messages", "turns")


@pytest.fixture(scope="module")
def saved(tmp_path_factory):
    path = tmp_path_factory.mktemp("lazy_json") / "trace.json"
    save_trace(long_trace(12), path)
    return path


def test_the_lists_items_and_the_rest_are_what_parsing_the_whole_file_gives(saved):
    raw = saved.read_bytes()
    whole = json.loads(raw)
    rest, lists = split_lists(raw, KEYS)
    assert set(lists) == set(KEYS)
    for key in KEYS:
        assert [json.loads(raw[start:end]) for start, end in lists[key]] == whole[key]
    assert json.loads(rest) == {**whole, "messages": [], "turns": []}


@pytest.mark.parametrize("layout", [
    lambda doc: json.dumps(doc),                                    # compact
    lambda doc: json.dumps(doc, indent=2),
    lambda doc: json.dumps({**doc, "turns": [{}, *doc["turns"]]}, indent=1),   # "{}": one line
    lambda doc: json.dumps({**doc, "turns": [*doc["turns"], 7]}, indent=1),    # not an object
], ids=["compact", "indent 2", "an empty object", "a number"])
def test_another_layout_is_left_to_be_parsed_whole(saved, layout):
    assert split_lists(layout(json.loads(saved.read_text())).encode(), KEYS) is None


def test_a_list_that_is_empty_stays_in_the_rest(saved):
    doc = json.loads(saved.read_text())
    rest, lists = split_lists(json.dumps({**doc, "turns": []}, indent=1).encode(), KEYS)
    assert set(lists) == {"messages"} and json.loads(rest)["turns"] == []


def test_the_messages_are_found_only_as_far_as_they_are_asked_for(saved):
    raw = saved.read_bytes()
    _, lists = split_lists(raw, KEYS)
    messages, turns = lists["messages"], lists["turns"]
    assert turns.complete and not messages.complete        # turns are all found at once
    start, end = messages[2]
    assert json.loads(raw[start:end]) == json.loads(raw)["messages"][2]
    assert len(messages._found) == 3 and not messages.complete
    assert len(messages) == len(json.loads(raw)["messages"]) and messages.complete


def test_messages_laid_out_otherwise_inside_the_list_are_read_whole(saved, tmp_path):
    path, _ = broken_copy(saved, tmp_path, "\n  },\n  {\n", "\n  },\n   {\n")  # valid JSON
    lazy, whole = open_trace(path, lazy=True), load_trace(path)
    assert type(lazy.turns._raw).__name__ == "LazyItems"
    assert dumps_trace(lazy) == dumps_trace(whole)


def test_a_trace_read_an_item_at_a_time_is_the_trace_read_whole(saved):
    lazy, whole = open_trace(saved, lazy=True), load_trace(saved)
    assert type(lazy.turns._raw).__name__ == "LazyItems"     # not parsed whole
    assert dumps_trace(lazy) == dumps_trace(whole)


def broken_copy(saved, tmp_path, old: str | bytes, new: str | bytes):
    """A copy of the saved trace with `old` replaced by `new` (text, or bytes that need not be
    UTF-8) and the line number where that is."""
    raw = saved.read_bytes()
    old, new = (s.encode() if isinstance(s, str) else s for s in (old, new))
    at = raw.index(old)
    path = tmp_path / "broken.json"
    path.write_bytes(raw[:at] + new + raw[at + len(old):])
    return path, raw[:at].count(b"\n") + 1


def test_characters_past_ascii_in_a_turn_read_as_they_are_whole(saved, tmp_path):
    path, _ = broken_copy(saved, tmp_path, "Turn 9: continue", "Turn 9 — café 🙂: continue")
    lazy, whole = open_trace(path, lazy=True), load_trace(path)
    assert "Turn 9 — café 🙂: continue" in lazy.turns[8].raw_response
    assert dumps_trace(lazy) == dumps_trace(whole)


def test_the_column_of_an_error_counts_characters_as_written(saved, tmp_path):
    path, line = broken_copy(saved, tmp_path, '"raw_response": "Turn 9:',
                             '"raw_response": "— é 🙂" "Turn 9:')
    with pytest.raises(TraceError) as e:
        open_trace(path, lazy=True).turns[8]
    column = len('   "raw_response": "— é 🙂" ') + 1
    assert str(e.value) == (f"{path}: turns[8]: not valid JSON at line {line}, column "
                            f"{column}: Expecting ',' delimiter")


def test_a_turn_that_is_not_utf8_is_an_error_naming_it_and_its_byte_when_reached(
        saved, tmp_path):
    path, _ = broken_copy(saved, tmp_path, '"number": 9,', b'"number": 9, "x": "\xff",')
    trace = open_trace(path, lazy=True)
    assert trace.turns[7].number == 8
    with pytest.raises(TraceError) as e:
        trace.turns[8]
    assert str(e.value) == f"{path}: turns[8]: not UTF-8 text (byte " \
                           f"{path.read_bytes().index(bytes([0xff]))})"


def test_a_head_that_is_not_utf8_is_the_whole_files_error_at_open(saved, tmp_path):
    path, _ = broken_copy(saved, tmp_path, '"max_turns"', b'"max\xfe_turns"')
    with pytest.raises(TraceError) as e:
        open_trace(path, lazy=True)
    assert str(e.value) == f"{path}: not UTF-8 text (byte " \
                           f"{path.read_bytes().index(bytes([0xfe]))})"


def test_a_turn_that_is_not_json_is_an_error_naming_it_and_its_line_when_reached(
        saved, tmp_path):
    path, line = broken_copy(saved, tmp_path, '"number": 9,', '"number": 9,,')
    trace = open_trace(path, lazy=True)                 # opens: the turns are not parsed yet
    assert trace.turns[7].number == 8
    with pytest.raises(TraceError) as e:
        trace.turns[8]
    column = len('   "number": 9,') + 1
    assert str(e.value) == (f"{path}: turns[8]: not valid JSON at line {line}, column "
                            f"{column}: Expecting property name enclosed in double quotes")


def test_a_message_with_a_key_twice_is_an_error_when_a_turn_that_sent_it_is_read(
        saved, tmp_path):
    path, _ = broken_copy(saved, tmp_path, '"role": "system",',
                          '"role": "system",\n   "role": "user",')
    trace = open_trace(path, lazy=True)
    with pytest.raises(TraceError, match=rf"^{path}: messages\[0\]: the key 'role' appears "
                                         "twice"):
        trace.turns[0]


@pytest.mark.parametrize("index", ["99999", "-1", '"0"', "1.0"])
def test_a_sent_index_that_is_not_a_message_is_an_error_read_lazily_or_whole(
        saved, tmp_path, index):
    path, _ = broken_copy(saved, tmp_path, '"sent": [\n    0,', f'"sent": [\n    {index},')
    expected = rf"^{path}: turns\[0\]\.sent: {index} is not an index into messages$"
    with pytest.raises(TraceError, match=expected.replace('"', "'")):
        open_trace(path, lazy=True).turns[0]
    with pytest.raises(TraceError, match=expected.replace('"', "'")):
        load_trace(path)


def test_kept_items_are_made_once_and_the_bytes_let_go_once_all_are(saved):
    raw = saved.read_bytes()
    _, lists = split_lists(raw, KEYS)
    made = []

    def make(item, i):
        made.append(i)
        return item["role"]
    messages = LazyItems(raw, "messages", lists["messages"], make, True, ValueError)
    assert messages[1] == messages[1] == "user" and made == [1]
    assert messages[-1] == json.loads(raw)["messages"][-1]["role"]
    assert messages._raw is raw
    assert list(messages) == [m["role"] for m in json.loads(raw)["messages"]]
    assert messages._raw is None and sorted(made) == list(range(len(messages)))
    turns = LazyItems(raw, "turns", lists["turns"], lambda t, i: t["number"], False, ValueError)
    assert list(turns) == list(range(1, len(turns) + 1)) and turns._raw is raw
