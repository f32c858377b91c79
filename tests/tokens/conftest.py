"""Token tests never reach the network, and each can reload encodings in its own tiktoken cache."""

import pytest
import tiktoken.load

from engine.tokens import encodings


@pytest.fixture(autouse=True)
def no_downloads(monkeypatch):
    """Any attempt by tiktoken to fetch a URL fails the test instead of waiting on the network."""
    read_local = tiktoken.load.read_file

    def read_file(blobpath):
        if "://" in blobpath:
            raise AssertionError(f"tiktoken tried to download {blobpath}")
        return read_local(blobpath)

    monkeypatch.setattr(tiktoken.load, "read_file", read_file)


@pytest.fixture
def fresh_encodings(monkeypatch, tmp_path):
    """Encodings resolved anew, with tiktoken's cache in an empty directory (returned)."""
    cache = tmp_path / "tiktoken-cache"
    cache.mkdir()
    monkeypatch.setenv("TIKTOKEN_CACHE_DIR", str(cache))
    encodings._encoding.cache_clear()
    encodings.load_encoding.cache_clear()
    yield cache
    encodings._encoding.cache_clear()
    encodings.load_encoding.cache_clear()
