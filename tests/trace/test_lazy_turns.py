"""A trace file's turns decoded as they are asked for (load_trace(..., lazy=True)): the same
turns as an eager load, only as many decoded as were needed, and a broken turn a TraceError
naming the file and the field when it is reached (and whenever it is asked for again)."""

import json

import pytest

from benchmarks.long_trace import long_trace
from engine.trace import TraceError, dumps_trace, load_trace, save_trace
from engine.trace.lazy_turns import LazyTurns, decoded_turns

TURNS = 30
BROKEN = 25                   # the turn whose prints are broken in `broken`


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    folder = tmp_path_factory.mktemp("lazy")
    good, broken = folder / "good.json", folder / "broken.json"
    save_trace(long_trace(TURNS), good)
    doc = json.loads(good.read_text())
    doc["turns"][BROKEN - 1]["prints"] = ["fine", 7]
    broken.write_text(json.dumps(doc))
    return good, broken


def test_a_lazy_trace_decodes_only_the_turns_asked_for_and_equals_the_eager_one(files):
    good, _ = files
    lazy, eager = load_trace(good, lazy=True), load_trace(good)
    assert isinstance(lazy.turns, LazyTurns) and type(eager.turns) is tuple
    assert len(lazy.turns) == TURNS and decoded_turns(lazy.turns) == 0
    assert lazy.turns[4].raw_response == eager.turns[4].raw_response
    assert decoded_turns(lazy.turns) == 5               # in order: memory builds on the one before
    assert lazy.turns[4].memory.keys() == eager.turns[4].memory.keys()
    assert lazy.turns[-1].number == TURNS and decoded_turns(lazy.turns) == TURNS
    assert dumps_trace(lazy) == dumps_trace(eager)      # every field of every turn
    assert lazy.turns[:3] == eager.turns[:3] and lazy.turns != eager.turns[:3]
    assert [t.number for t in lazy.turns[2:4]] == [3, 4]
    with pytest.raises(IndexError):
        lazy.turns[TURNS]


def test_a_broken_turn_is_an_error_naming_it_when_reached_and_every_time_after(files):
    _, broken = files
    trace = load_trace(broken, lazy=True)               # opens: the header is whole
    assert trace.agent.name == "long-exploration" and len(trace.turns) == TURNS
    assert trace.turns[BROKEN - 2].number == BROKEN - 1  # the turns before it read
    for _ in range(2):
        with pytest.raises(TraceError) as e:
            trace.turns[TURNS - 1]
        assert str(e.value) == f"{broken}: turns[{BROKEN - 1}].prints[1]: expected a string"
    assert decoded_turns(trace.turns) == BROKEN - 1
    assert trace.turns[0].number == 1                   # what was read stays readable


def test_an_eager_load_still_refuses_the_broken_file_at_once(files):
    _, broken = files
    with pytest.raises(TraceError, match=rf"turns\[{BROKEN - 1}\]\.prints\[1\]: expected"):
        load_trace(broken)


def renumbered(good, tmp_path, indent):
    doc = json.loads(good.read_text())
    doc["turns"][20]["number"] = 3
    path = tmp_path / "renumbered.json"
    path.write_text(json.dumps(doc, indent=indent))
    return path


def test_turn_numbers_of_a_file_parsed_whole_are_checked_before_any_turn_is_decoded(
        files, tmp_path):
    path = renumbered(files[0], tmp_path, None)          # not as the saver lays it out
    with pytest.raises(TraceError, match=r"turns\[20\]\.number: expected 21, got 3"):
        load_trace(path, lazy=True)


def test_a_turn_number_of_a_file_read_a_turn_at_a_time_is_checked_with_its_turn(
        files, tmp_path):
    trace = load_trace(renumbered(files[0], tmp_path, 1), lazy=True)   # the saver's layout
    assert trace.turns[19].number == 20
    with pytest.raises(TraceError, match=r"turns\[20\]\.number: expected 21, got 3"):
        trace.turns[20]


def test_a_decoded_turns_json_is_let_go(files):
    _, broken = files                                   # parsed whole: a list of turns
    turns = load_trace(broken, lazy=True).turns
    turns[9]
    assert turns._raw[:10] == [None] * 10 and all(t is not None for t in turns._raw[10:])


def test_the_files_text_is_let_go_once_every_turn_is_decoded(files):
    good, _ = files                                     # read a turn at a time
    turns = load_trace(good, lazy=True).turns
    turns[9]
    assert len(turns._raw) == TURNS                     # the text's turns, parsed when asked
    turns.decode_all()
    assert turns._raw == ()


def test_asking_decodes_exactly_up_to_the_turn_asked_for(files):
    good, _ = files
    turns = load_trace(good, lazy=True).turns
    with pytest.raises(IndexError):
        turns[TURNS]                                   # past the end: nothing decoded for it
    assert turns.decoded == 0 and repr(turns) == f"<LazyTurns 0 of {TURNS} decoded>"
    assert turns[0].number == 1 and turns.decoded == 1  # the very next one
    assert turns[1].number == 2 and turns.decoded == 2
    turns.decode_all()
    assert turns.decoded == TURNS and turns.error is None


def test_lazy_turns_equal_the_same_turns_and_no_others(files):
    good, _ = files
    lazy = load_trace(good, lazy=True).turns
    same = tuple(lazy)                 # (two loads differ: a function value is itself only)
    assert lazy == same and lazy == list(same)
    assert lazy != same[:-1] + same[:1]                 # same length, one turn differs
    assert lazy != same[:-1] and lazy != "turns"


def test_a_broken_turn_is_kept_as_the_error(files):
    _, broken = files
    turns = load_trace(broken, lazy=True).turns
    assert turns.error is None
    with pytest.raises(TraceError) as e:
        turns.decode_all()
    assert turns.error is e.value and turns.decoded == BROKEN - 1
