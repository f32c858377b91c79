"""engine.trace.disk: atomic writes that leave the old file whole on any failure, and reads that
never block and never read without a limit."""

import glob
import gzip
import os
import stat
import subprocess
import sys
import threading
import time

import pytest

from engine.trace.disk import (UnreadableFile, read_bytes, read_json_text, read_text, readable_size,
                               target_problem, write_atomically)


def leftovers(folder):
    return sorted(p.name for p in folder.iterdir() if p.name != "t.json")


def test_a_write_replaces_the_file_and_leaves_nothing_else(tmp_path):
    path = tmp_path / "t.json"
    path.write_text("old")
    os.chmod(path, 0o640)
    write_atomically(path, "new ✓")
    assert path.read_text(encoding="utf-8") == "new ✓"
    assert oct(os.stat(path).st_mode & 0o777) == oct(0o640)       # permissions kept
    assert leftovers(tmp_path) == []


@pytest.mark.parametrize("umask, mode", [(0o022, 0o644), (0o077, 0o600), (0, 0o666)])
def test_a_new_file_gets_the_usual_permissions_for_the_umask(tmp_path, umask, mode):
    """Not the temporary file's 0600, and never an execute bit."""
    old = os.umask(umask)
    try:
        write_atomically(tmp_path / "t.json", "new")
        assert os.umask(umask) == umask            # the process's umask is as it was
    finally:
        os.umask(old)
    assert oct(os.stat(tmp_path / "t.json").st_mode & 0o777) == oct(mode)


def test_writers_in_threads_leave_the_umask_and_each_others_permissions_alone(tmp_path,
                                                                              monkeypatch):
    """As an experiment's runs save their traces: whatever the threads' timing, each new file
    gets the usual permissions and the process's umask stays as it was."""
    real_umask = os.umask

    def unlucky_umask(mask):              # another thread runs between any two calls
        old = real_umask(mask)
        time.sleep(0.1)
        return old

    monkeypatch.setattr(os, "umask", unlucky_umask)
    old = real_umask(0o022)
    try:
        writers = [threading.Thread(target=write_atomically, args=(tmp_path / f"{i}.json", "x"))
                   for i in range(4)]
        for w in writers:
            w.start()
        for w in writers:
            w.join()
        assert real_umask(0o022) == 0o022
    finally:
        real_umask(old)
    assert {oct(p.stat().st_mode & 0o777) for p in tmp_path.iterdir()} == {oct(0o644)}
    assert len(list(tmp_path.iterdir())) == 4


def test_a_gzip_file_carries_no_timestamp(tmp_path):
    """RFC 1952's MTIME 0 is "no time stamp": `gunzip -N` sets no 1970 date on the file."""
    write_atomically(tmp_path / "t.json.gz", "{}")
    with gzip.open(tmp_path / "t.json.gz") as f:
        assert f.read() == b"{}" and f.mtime == 0


def test_text_that_cannot_be_encoded_leaves_the_old_file(tmp_path):
    path = tmp_path / "t.json"
    path.write_text("old")
    with pytest.raises(UnicodeEncodeError):
        write_atomically(path, "lone \ud800 surrogate")
    assert path.read_text() == "old" and leftovers(tmp_path) == []


FILL_THE_DISK = """
import resource, signal, sys
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)      # a write past the limit fails with EFBIG
resource.setrlimit(resource.RLIMIT_FSIZE, (1000, 1000))
from engine.trace.disk import write_atomically
try:
    write_atomically(sys.argv[1], "x" * 5000)
except OSError as e:
    print("failed:", e.strerror)
"""


def test_a_full_disk_leaves_the_old_file_and_no_temporary_file(tmp_path):
    path = tmp_path / "t.json"
    path.write_text("old")
    r = subprocess.run([sys.executable, "-c", FILL_THE_DISK, str(path)], capture_output=True,
                       text=True, timeout=60)
    assert r.stdout.strip() == "failed: File too large", r.stderr
    assert path.read_text() == "old" and leftovers(tmp_path) == []


def test_a_kill_mid_write_leaves_the_old_file(tmp_path):
    """The new text is written to a temporary file: until the rename, the target is the old."""
    path = tmp_path / "t.json"
    path.write_text("old")
    script = ("import os, signal\nimport engine.trace.disk as d\n"
              "def die(fd):\n    os.kill(os.getpid(), signal.SIGKILL)\n"
              "d.os.fsync = die\nd.write_atomically(%r, 'new')\n" % str(path))
    r = subprocess.run([sys.executable, "-c", script], timeout=60)
    assert r.returncode == -9
    assert path.read_text() == "old"


@pytest.mark.parametrize("make, kind", [
    (lambda p: os.mkfifo(p), "a FIFO"),
    (lambda p: os.mkdir(p), "a folder"),
    (lambda p: os.symlink("/dev/zero", p), "a device"),
    (lambda p: (os.symlink(p.with_name("b"), p), os.symlink(p, p.with_name("b"))),
     "a loop of symbolic links"),
], ids=["fifo", "folder", "dev-zero", "symlink-loop"])
def test_reading_what_is_not_a_regular_file_is_refused_at_once(tmp_path, make, kind):
    path = tmp_path / "a"
    make(path)
    result = []
    reader = threading.Thread(target=lambda: result.append(_error_of(read_bytes, path)),
                              daemon=True)
    reader.start()
    reader.join(30)             # a blocked open would hang here for good
    assert not reader.is_alive(), "the read blocked"
    [message] = result
    assert message.startswith(f"{path}: cannot read the file: ") and kind in message


def block_device():
    return next((p for p in sorted(glob.glob("/dev/*")) if stat.S_ISBLK(os.stat(p).st_mode)),
                None)


def test_a_block_device_is_refused_as_a_device(tmp_path):
    device = block_device()
    if device is None:
        pytest.skip("no block device on this machine")
    path = tmp_path / "disk.json"
    path.symlink_to(device)                # refused by its type: it is never opened
    assert _error_of(read_bytes, path) == (f"{path}: cannot read the file: it is a device, "
                                           "not a regular file")


def _error_of(read, path):
    try:
        read(path, 1000)
    except UnreadableFile as e:
        return str(e)
    return "read without error"


def test_a_missing_file_is_one_plain_line(tmp_path):
    path = tmp_path / "gone.json"
    assert _error_of(read_bytes, path) == f"{path}: cannot read the file: No such file or directory"


def test_reads_are_capped(tmp_path):
    path = tmp_path / "big"
    path.write_bytes(b"x" * 100)
    assert read_bytes(path, limit=100) == b"x" * 100
    with pytest.raises(UnreadableFile, match="100 bytes is larger than the 99-byte limit"):
        read_bytes(path, limit=99)


def test_the_size_is_checked_as_a_read_checks_it_without_reading(tmp_path):
    path = tmp_path / "big"
    path.write_bytes(b"x" * 100)
    assert readable_size(path, 100) == 100
    with pytest.raises(UnreadableFile, match="100 bytes is larger than the 99-byte limit"):
        readable_size(path, 99)
    os.mkfifo(tmp_path / "fifo")
    assert _error_of(readable_size, tmp_path / "fifo").endswith("it is a FIFO (named pipe), "
                                                                "not a regular file")


def test_text_that_is_not_utf8_names_the_file(tmp_path):
    path = tmp_path / "t"
    path.write_bytes(b"ok \xff")
    with pytest.raises(ValueError, match=f"{path}: not UTF-8 text \\(byte 3\\)"):
        read_text(path, 100)


def test_target_problems(tmp_path):
    assert target_problem(tmp_path / "new.json") is None
    assert target_problem(tmp_path) == f"{tmp_path}: is a folder, not a file"
    missing = tmp_path / "nope" / "t.json"
    assert target_problem(missing) == f"{missing}: no such folder: {tmp_path / 'nope'}"
    os.mkfifo(tmp_path / "fifo")
    assert target_problem(tmp_path / "fifo") == f"{tmp_path / 'fifo'}: is not a regular file"
    (tmp_path / "link").symlink_to(tmp_path / "gone")    # a symlink is replaced, not followed
    assert target_problem(tmp_path / "link") is None


def padded(doc_text: str, size: int = 200_000) -> str:
    """`doc_text` (a JSON object) with a long ASCII field first: a trace is mostly ASCII."""
    return '{"pad": "' + "x" * size + '", ' + doc_text[1:]


JSON_WITH_TEXT_PAST_ASCII = {
    "accents, dashes, emoji, CJK": padded('{"a": "caf\u00e9 \u2014 \u26a0\ufe0f \u6771\u4eac", '
                                          '"b": ["\U0001f680 go", "\\\\ \u00e9"]}'),
    "a key past ASCII, an escape kept": padded('{"k\u00e9y": 1, "x": "\\u00e9 and \u00e9"}'),
    "an emoji cut by a 1 MB step": padded('{"a": ["' + "\U0001f600" * 400 + '"]}',
                                          (1 << 21) - 30),
}


@pytest.mark.parametrize("doc", JSON_WITH_TEXT_PAST_ASCII.values(),
                         ids=JSON_WITH_TEXT_PAST_ASCII.keys())
def test_json_text_read_with_escapes_parses_to_the_same_values_at_one_byte_a_character(
        tmp_path, doc):
    import json
    path = tmp_path / "t.json"
    path.write_text(doc, encoding="utf-8")
    text = read_json_text(path, 1 << 30)
    assert text.isascii()                          # one byte a character, whatever the file
    assert json.loads(text) == json.loads(doc)


def test_the_emoji_case_does_cut_one_at_a_step():
    doc = JSON_WITH_TEXT_PAST_ASCII["an emoji cut by a 1 MB step"].encode()
    assert doc[1 << 21] & 0xC0 == 0x80             # a continuation byte: the step cuts it


def test_mostly_text_past_ascii_is_read_as_written(tmp_path):
    import json
    doc = json.dumps(["\u6771\u4eac\u306e\u5929\u6c17 \U0001f600"] * 1000, ensure_ascii=False)
    path = tmp_path / "t.json"
    path.write_text(doc, encoding="utf-8")
    assert read_json_text(path, 1 << 30) == doc    # escaping it all would be slow


BACKSLASH_THEN_PAST_ASCII = '{"a": "\\\u00e9"}'      # "\é": not a JSON escape


@pytest.mark.parametrize("doc", [
    BACKSLASH_THEN_PAST_ASCII, '\ufeff{"a": "\u00e9"}',
    padded(BACKSLASH_THEN_PAST_ASCII),                      # mostly ASCII: else escaped
    padded(BACKSLASH_THEN_PAST_ASCII, (1 << 20) - 19),      # the 1 MB step between the two
], ids=["backslash", "byte-order mark", "backslash, mostly ASCII", "backslash across a step"])
def test_where_an_escape_could_change_the_meaning_the_text_is_read_as_written(tmp_path, doc):
    import json
    path = tmp_path / "t.json"
    path.write_text(doc, encoding="utf-8")
    assert read_json_text(path, 1 << 30) == doc           # "\é" stays an invalid JSON escape
    with pytest.raises(json.JSONDecodeError):
        json.loads(read_json_text(path, 1 << 30))


def test_a_bad_utf8_byte_past_the_first_step_is_named_at_its_place_in_the_file(tmp_path):
    path = tmp_path / "t.json"
    body = ('"' + "\u00e9" * 700_000 + '"').encode()     # 1.4 MB: a character cut at 1 MB
    path.write_bytes(body[:1_200_001] + b"\xff" + body[1_200_001:])
    with pytest.raises(ValueError, match=r"not UTF-8 text \(byte 1200001\)"):
        read_json_text(path, 1 << 30)
