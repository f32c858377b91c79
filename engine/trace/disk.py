"""Files on disk, safely: every write is atomic (the old file stays whole until the new one is
complete), and every read is of a regular file, capped in size, and can never block (a FIFO or
a device is refused before it is opened for reading). A file whose name ends in `.gz` is
written gzip-compressed; a gzip-compressed file is read as its content, whatever its name."""

from __future__ import annotations

import codecs
import errno
import gzip
import io
import os
import re
import secrets
import stat
import tempfile
import zlib

GZIP_MAGIC = b"\x1f\x8b"


class UnreadableFile(OSError):
    """A file that cannot be read at all (missing, not a regular file, too large, I/O error);
    the message names the file and says why."""


def write_atomically(path, text: str) -> None:
    """Write `text` (UTF-8) to `path` so that `path` is always either the old file or the new one:
    a temporary file in the same folder is written, flushed and fsynced, then renamed over `path`,
    then the folder is fsynced. On any failure (full disk, size limit, text that cannot be
    encoded, a signal) the temporary file is removed, the old file is untouched, and the error
    propagates. A symlink at `path` is replaced by the file, not followed. A `path` ending in
    `.gz` gets the text gzip-compressed (with no timestamp: the same text, the same bytes)."""
    data = text.encode("utf-8")           # before touching the disk: lone surrogates fail here
    if os.fspath(path).endswith(".gz"):
        data = gzip.compress(data, mtime=0)
    folder = os.path.dirname(os.path.abspath(path))
    fd, tmp = _new_file_beside(path, folder)
    try:
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view):]
            os.fsync(fd)
        finally:
            os.close(fd)
        _keep_mode(path, tmp)
        os.replace(tmp, path)
    except BaseException as e:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        if isinstance(e, OSError):          # name the target, not the temporary file
            raise OSError(e.errno, e.strerror or str(e), os.fspath(path)) from None
        raise
    _fsync_folder(folder)


def _new_file_beside(path, folder: str) -> tuple[int, str]:
    """A new empty file in `folder`, open for writing, with the permissions of any new file:
    0666 less the umask, applied by the system. (mkstemp's 0600 would need the umask read,
    and reading it sets it, for a moment, for every thread: one saving at the same time
    would then write a world-writable file, or leave the umask at 0 for good.)"""
    while True:
        tmp = os.path.join(folder, f".{os.path.basename(path)}.{secrets.token_hex(4)}.tmp")
        try:
            return os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666), tmp
        except FileExistsError:         # another writer's name, drawn again
            pass


def _keep_mode(path, tmp: str) -> None:
    """The new file gets the old file's permissions, when there is an old file."""
    try:
        mode = stat.S_IMODE(os.stat(path).st_mode)
    except OSError:
        return
    os.chmod(tmp, mode)


def _fsync_folder(folder: str) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:                       # some file systems cannot fsync a folder
        pass
    finally:
        os.close(fd)


def read_bytes(path, limit: int) -> bytes:
    """The bytes of the regular file at `path`, at most `limit` of them;
    UnreadableFile naming the file for anything else, without ever blocking: a FIFO, a device,
    a folder or a symlink loop is refused by its type before it is read."""
    name = os.fspath(path)
    try:
        fd = _open_checked(path, limit)
        try:
            chunks, total = [], 0
            size = os.fstat(fd).st_size       # read at once into one buffer (no joined copy)
            while chunk := os.read(fd, max(size - total, 1 << 20)):  # it can grow meanwhile
                chunks.append(chunk)
                total += len(chunk)
                if total > limit:
                    raise UnreadableFile(f"{name}: larger than the {limit:,}-byte limit")
            return b"".join(chunks)
        finally:
            os.close(fd)
    except UnreadableFile:
        raise
    except OSError as e:
        raise UnreadableFile(f"{name}: cannot read the file: {_why(e)}") from None


def readable_size(path, limit: int) -> int:
    """The size of the file at `path` once it is known that read_bytes would not refuse it by
    its type, size or permissions (without reading it): a cheap check before a slow load."""
    fd = _open_checked(path, limit)
    size = os.fstat(fd).st_size
    os.close(fd)
    return size


def _open_checked(path, limit: int) -> int:
    """A descriptor of the regular file at `path`, no larger than `limit` (opened
    non-blocking, so that a FIFO put in the file's place since the stat cannot block; then
    refused by its type)."""
    name = os.fspath(path)
    try:
        _check_type(name, os.stat(path).st_mode)      # before opening: a FIFO's open blocks
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)      # not inherited (PEP 446)
    except UnreadableFile:
        raise
    except OSError as e:
        raise UnreadableFile(f"{name}: cannot read the file: {_why(e)}") from None
    try:
        info = os.fstat(fd)
        _check_type(name, info.st_mode)        # the file could have changed since the stat
        if info.st_size > limit:
            raise UnreadableFile(f"{name}: {info.st_size:,} bytes is larger than the "
                                 f"{limit:,}-byte limit")
    except BaseException:
        os.close(fd)
        raise
    return fd


def _check_type(name: str, mode: int) -> None:
    if stat.S_ISREG(mode):
        return
    kind = ("a folder" if stat.S_ISDIR(mode) else "a FIFO (named pipe)" if stat.S_ISFIFO(mode)
            else "a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode)
            else "a socket" if stat.S_ISSOCK(mode) else "not a regular file")
    raise UnreadableFile(f"{name}: cannot read the file: it is {kind}, not a regular file")


def _why(e: OSError) -> str:
    if e.errno == errno.ELOOP:
        return "a loop of symbolic links"
    return e.strerror or str(e)


def read_text(path, limit: int) -> str:
    """The regular file at `path` as UTF-8 text (see read_bytes), decompressed first when it is
    gzip-compressed (`limit` then caps the decompressed size too); UnreadableFile for a file
    that cannot be read, ValueError naming the file for one that is not UTF-8 or is broken
    gzip."""
    return _decoded(read_content(path, limit), os.fspath(path))


def read_json_text(path, limit: int) -> str:
    """The JSON (or JSON lines) file at `path` as read_text reads it, but with every character
    past ASCII written as its JSON escape, so that the text parses to the same values and is one
    byte per character: Python stores a whole string at the width of its widest character, so a
    single emoji makes a plain 24 MB trace's text 98 MB. A text where escaping could change
    the meaning (a character past ASCII right after a backslash, or a leading byte-order mark)
    or would take long (many characters past ASCII) is returned as read_text returns it."""
    raw = read_content(path, limit)
    if raw.isascii():
        return raw.decode("ascii")
    if raw.startswith(codecs.BOM_UTF8):
        return _decoded(raw, os.fspath(path))
    decoder = codecs.getincrementaldecoder("utf-8")()
    pieces, step = [], 1 << 20
    with memoryview(raw) as view:
        for start in range(0, len(raw), step):
            held = len(decoder.getstate()[0])        # bytes of a character cut at the edge
            try:
                piece = decoder.decode(view[start:start + step], final=start + step >= len(raw))
            except UnicodeDecodeError as e:
                raise ValueError(f"{os.fspath(path)}: not UTF-8 text "
                                 f"(byte {start - held + e.start})") from None
            pieces.append(piece)
    size = len(raw)
    del raw                        # before the join: the bytes, the pieces and the text at once
    if (size - sum(map(len, pieces))) * ESCAPED_AT_MOST > size:
        return "".join(pieces)     # many characters past ASCII: escaping them all would be slow
    if any(before.endswith("\\") and not after[:1].isascii()    # across a step
           for before, after in zip(pieces, pieces[1:])):
        return "".join(pieces)
    try:
        return "".join(p if p.isascii() else _PAST_ASCII.sub(_json_escape, p) for p in pieces)
    except _AfterBackslash:        # within a step
        return "".join(pieces)


# Escaped only when at most one byte in this many is past ASCII (about 25 ms for 24 MB): most
# traces are English with a few dashes and emoji; a mostly-CJK file is read as it is written.
ESCAPED_AT_MOST = 1000


_PAST_ASCII = re.compile(r"[^\x00-\x7f]")


class _AfterBackslash(Exception):
    """A character past ASCII right after a backslash: an escape of it could change what the
    text means (found where the characters are escaped, not by a search of the whole file for
    a backslash before one: a trace holds a backslash every 20 bytes)."""


def _json_escape(match: re.Match) -> str:
    start = match.start()
    if start and match.string[start - 1] == "\\":
        raise _AfterBackslash
    code = ord(match.group())
    if code < 0x10000:
        return f"\\u{code:04x}"
    code -= 0x10000                                   # a surrogate pair, as JSON writes it
    return f"\\u{0xd800 + (code >> 10):04x}\\u{0xdc00 + (code & 0x3ff):04x}"


def read_content(path, limit: int) -> bytes:
    """The bytes of the file at `path` (read_bytes), decompressed when they are gzip's (`limit`
    then caps the decompressed size too; ValueError naming the file for broken gzip)."""
    raw = read_bytes(path, limit)
    return gunzip(raw, limit, os.fspath(path)) if raw.startswith(GZIP_MAGIC) else raw


def _decoded(raw: bytes, name: str) -> str:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise ValueError(f"{name}: not UTF-8 text (byte {e.start})") from None


def gunzip(data: bytes, limit: int, name: str) -> bytes:
    """The content of gzip-compressed `data`, at most `limit` bytes of it (a small file can
    expand a thousandfold): ValueError naming `name` when it is larger, cut short or broken."""
    try:
        with gzip.GzipFile(fileobj=io.BytesIO(data)) as f:
            content = f.read(limit + 1)
    except EOFError:
        raise ValueError(f"{name}: the gzip data ends early (truncated?)") from None
    except (OSError, zlib.error) as e:
        raise ValueError(f"{name}: not valid gzip data ({e})") from None
    if len(content) > limit:
        raise ValueError(f"{name}: larger than the {limit:,}-byte limit once decompressed")
    return content


def target_problem(path) -> str | None:
    """Why a file cannot be written at `path`, or None: checked before any work is done, so a
    run never finds out after its last turn that it cannot be saved."""
    name = os.fspath(path)
    folder = os.path.dirname(os.path.abspath(name))
    if os.path.isdir(name):
        return f"{name}: is a folder, not a file"
    if not os.path.isdir(folder):
        return f"{name}: no such folder: {folder}"
    try:                                   # try it: permissions, read-only file systems...
        fd, probe = tempfile.mkstemp(prefix=".ptc-tui-probe.", dir=folder)
    except OSError as e:
        return f"{name}: cannot write in the folder {folder} ({_why(e).lower()})"
    os.close(fd)
    os.unlink(probe)
    if os.path.lexists(name) and not os.path.isfile(name) and not os.path.islink(name):
        return f"{name}: is not a regular file"
    return None


def starts_with(path, markers: tuple[bytes, ...], head: int = 4096) -> bool:
    """Whether the regular file at `path` holds one of `markers` in its first `head` bytes
    (or is empty): how a writer recognises a file it wrote itself before replacing it."""
    start = file_head(path, head)
    return start is not None and (not start.strip() or any(m in start for m in markers))


def file_head(path, head: int) -> bytes | None:
    """The first `head` bytes of the regular file at `path`, decompressed when it is gzip;
    None when it cannot be read (the loader then says why). Never opens a FIFO or a device."""
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            return None
        with open(path, "rb") as f:
            start = f.read(head)
            if not start.startswith(GZIP_MAGIC):
                return start
            f.seek(0)
            with gzip.GzipFile(fileobj=f) as unzipped:
                return unzipped.read(head)
    except (OSError, EOFError, zlib.error):
        return None
