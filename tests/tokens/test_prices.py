"""Prices: the shipped table, model lookup, cost arithmetic, user files and broken files."""

import os
from dataclasses import FrozenInstanceError

import pytest

from engine.tokens import Price, TokenCounter, call_cost, cost, load_prices, price_for, total_cost
from engine.tokens.prices import ENV_VAR

SMALL = """
as_of = 2026-01-02
[models."alpha"]
input = 2.0
output = 8.0
[models."alpha-mini"]
input = 0.5
cached_input = 0.125
output = 2
[models."zeta"]
input = 4
cached_input = 0.4
cache_write = 5
output = 20
"""


@pytest.fixture
def small(tmp_path):
    path = tmp_path / "prices.toml"
    path.write_text(SMALL)
    return load_prices(path)


REQUIRED = ["gpt-4o", "gpt-4o-mini", "gpt-4.1", "gpt-4.1-mini", "gpt-4.1-nano", "o3", "o4-mini",
            "gpt-5", "gpt-5-mini", "claude-opus-4-1", "claude-sonnet-4-5", "claude-haiku-4-5"]


@pytest.mark.parametrize("model", REQUIRED)
def test_shipped_table_prices_the_common_models(model, monkeypatch):
    monkeypatch.delenv(ENV_VAR, raising=False)
    price = price_for(model)
    assert price is not None and price.model == model
    assert 0 < price.input <= price.output
    assert price.cached_input is None or price.cached_input < price.input


def test_shipped_table_has_a_date(monkeypatch):
    monkeypatch.delenv(ENV_VAR, raising=False)
    assert load_prices().as_of[:2] == "20"


@pytest.mark.parametrize("model, found", [
    ("alpha", "alpha"),
    ("alpha-mini", "alpha-mini"),
    ("alpha-mini-2024-07-18", "alpha-mini"),     # longest configured prefix wins
    ("alpha-2025-01-01", "alpha"),
    ("alpha@20250101", "alpha"),
    ("ALPHA", "alpha"),
    ("openai:alpha-mini", "alpha-mini"),
    ("anthropic/alpha", "alpha"),
    ("alpha.5", None),                           # another version, not a snapshot of alpha
    ("alphabet", None),
    ("alpha:acme::ft-1", None),                  # a fine-tune is billed at other rates
    ("beta", None),
    ("", None),
    (None, None),
])
def test_lookup(small, model, found):
    price = small.price_for(model)
    assert (price.model if price else None) == found


def test_cost_arithmetic(small):
    alpha, mini = small.price_for("alpha"), small.price_for("alpha-mini")
    assert cost(alpha, 1_000_000) == 2.0                  # the price is per million tokens
    assert cost(alpha, 1000, 500) == pytest.approx((1000 * 2.0 + 500 * 8.0) / 1e6)
    assert cost(mini, 1000, 500, cached_tokens=4000) == pytest.approx(
        (1000 * 0.5 + 4000 * 0.125 + 500 * 2) / 1e6)
    # No cached rate: cache hits are billed as ordinary input.
    assert cost(alpha, 1000, cached_tokens=4000) == pytest.approx(5000 * 2.0 / 1e6)
    assert cost(alpha, 0) == 0.0


MESSAGES = [{"role": "user", "content": "How many reviews mention the battery?"}]
REPLY = "Counting them.\n```clojure\n(count (tool/search {:q \"battery\"}))\n```"


def test_a_call_prices_uncached_input_cached_input_and_output_each_at_its_own_rate(small):
    mini = small.price_for("alpha-mini")
    c = call_cost(mini, TokenCounter(), MESSAGES, REPLY, input_tokens=5000, output_tokens=500,
                  cached_tokens=4000)
    assert (c.input_tokens, c.cached_tokens, c.output_tokens) == (5000, 4000, 500)
    assert not c.counted
    assert c.usd == pytest.approx((1000 * 0.5 + 4000 * 0.125 + 500 * 2.0) / 1e6)
    # a model without a cached rate bills the cache hits as ordinary input
    alpha = call_cost(small.price_for("alpha"), TokenCounter(), MESSAGES, REPLY, 5000, 500, 4000)
    assert alpha.usd == pytest.approx((5000 * 2.0 + 500 * 8.0) / 1e6)


def test_cache_writes_are_billed_at_cache_write_else_at_input(small):
    beta = small.price_for("zeta")
    assert beta.cache_write == 5.0 and small.price_for("alpha").cache_write is None
    c = call_cost(beta, TokenCounter(), MESSAGES, REPLY, input_tokens=5000, output_tokens=100,
                  cached_tokens=3000, cache_write_tokens=1500)
    assert (c.cached_tokens, c.cache_write_tokens) == (3000, 1500)
    assert c.usd == pytest.approx((500 * 4 + 3000 * 0.4 + 1500 * 5 + 100 * 20) / 1e6)
    plain = call_cost(small.price_for("alpha"), TokenCounter(), MESSAGES, REPLY, 5000, 100, 0,
                      1500)
    assert plain.usd == pytest.approx((5000 * 2.0 + 100 * 8.0) / 1e6)
    # a write reported beyond the prompt is cut to what is left of it
    assert call_cost(beta, TokenCounter(), MESSAGES, REPLY, 100, 0, 80, 500).cache_write_tokens \
        == 20
    assert total_cost([c, c]).cache_write_tokens == 3000


def test_the_shipped_anthropic_cache_writes_are_about_a_quarter_above_input(monkeypatch):
    """Claude 3 Haiku's $0.30 is Anthropic's rounding of 1.25 x $0.25."""
    monkeypatch.delenv(ENV_VAR, raising=False)
    written = [p for p in load_prices().models.values() if p.cache_write is not None]
    assert written and all(p.model.startswith("claude") for p in written)
    assert all(p.cache_write == pytest.approx(p.input * 1.25, rel=0.05) for p in written)


def test_a_count_the_provider_did_not_report_is_counted_and_marked(small):
    counter = TokenCounter()
    c = call_cost(small.price_for("alpha"), counter, MESSAGES, REPLY, input_tokens=40)
    assert c.output_tokens == counter.count(REPLY) > 0
    assert c.output_counted and not c.input_counted
    assert c.usd == pytest.approx((40 * 2.0 + c.output_tokens * 8.0) / 1e6)
    neither = call_cost(small.price_for("alpha"), counter, MESSAGES, REPLY)
    assert neither.input_tokens == counter.count_messages(MESSAGES).total
    assert neither.input_counted and neither.output_counted


def test_calls_sum_and_one_unknown_price_makes_the_total_unknown(small):
    alpha = small.price_for("alpha")
    a = call_cost(alpha, TokenCounter(), MESSAGES, REPLY, 100, 10, 0)
    b = call_cost(alpha, TokenCounter(), MESSAGES, REPLY, 200, None, 50)
    total = total_cost([a, b])
    assert (total.input_tokens, total.cached_tokens) == (300, 50)
    assert total.output_tokens == 10 + b.output_tokens and total.output_counted
    assert total.usd == pytest.approx(a.usd + b.usd)
    unknown = call_cost(None, TokenCounter(), MESSAGES, REPLY, 100, 10)
    assert unknown.usd is None and total_cost([a, unknown]).usd is None


def test_a_free_model_costs_nothing_rather_than_an_unknown_amount(tmp_path):
    path = tmp_path / "local.toml"
    path.write_text('as_of = 2026-01-02\n[models."local"]\ninput = 0\noutput = 0\n')
    assert cost(load_prices(path).price_for("local"), 1000, 1000) == 0.0


def test_a_call_priced_here_is_not_marked_as_reported_by_the_provider(small):
    c = call_cost(small.price_for("alpha"), TokenCounter(), MESSAGES, REPLY, 100, 10)
    assert not c.usd_reported and not total_cost([c, c]).usd_reported


def test_loaded_prices_are_shared_and_cannot_be_changed(small, tmp_path):
    """Every load of an unchanged file returns the one cached table: a caller that could
    change it would change every other caller's prices."""
    assert load_prices(tmp_path / "prices.toml") is small
    with pytest.raises(FrozenInstanceError):
        small.as_of = "2020-01-01"
    with pytest.raises(TypeError):
        small.models["alpha"] = Price("alpha", 0, 0)
    with pytest.raises(FrozenInstanceError):
        small.price_for("alpha").input = 0.0
    with pytest.raises(FrozenInstanceError):
        call_cost(small.price_for("alpha"), TokenCounter(), MESSAGES, REPLY, 1, 1).usd = 0.0


def test_unknown_price_has_unknown_cost(small):
    assert cost(small.price_for("beta"), 1000, 1000) is None
    assert cost(None, 0) is None


def test_negative_tokens_are_an_error():
    with pytest.raises(ValueError, match="cached_tokens"):
        cost(Price("m", 1.0, 1.0), 10, 0, -1)


def test_env_var_points_at_a_users_file(tmp_path, monkeypatch):
    path = tmp_path / "mine.toml"
    path.write_text(SMALL)
    monkeypatch.setenv(ENV_VAR, str(path))
    assert price_for("alpha-mini").input == 0.5
    assert price_for("gpt-4o") is None
    table = load_prices()
    assert (table.as_of, table.source) == ("2026-01-02", str(path))


def test_explicit_path_wins_over_env(tmp_path, monkeypatch):
    monkeypatch.setenv(ENV_VAR, str(tmp_path / "missing.toml"))
    path = tmp_path / "mine.toml"
    path.write_text(SMALL)
    assert load_prices(path).price_for("alpha").output == 8.0


def test_edited_file_is_reloaded(tmp_path):
    path = tmp_path / "p.toml"
    path.write_text(SMALL)
    assert load_prices(path).price_for("alpha").input == 2.0
    path.write_text(SMALL.replace("input = 2.0", "input = 3.0"))
    os.utime(path, ns=(1, 1))
    assert load_prices(path).price_for("alpha").input == 3.0


@pytest.mark.parametrize("text, problem", [
    ('as_of = 2026-01-02\n[models."a"\ninput = 1', "not valid TOML"),
    ('[models."a"]\ninput = 1\noutput = 2', "as_of is missing"),
    ('as_of = 2026-01-02\nmodels = 3', "models must be tables"),
    ('as_of = 2026-01-02\n[models]\na = 3', "models.a must be a table"),
    ('as_of = 2026-01-02\n[models."a"]\ninput = 1', "models.a: output is missing"),
    ('as_of = 2026-01-02\n[models."a"]\ninput = 1\nouput = 2', "unknown key 'ouput'"),
    ('as_of = 2026-01-02\n[models."a"]\ninput = "1"\noutput = 2', "models.a.input must be a"),
    ('as_of = 2026-01-02\n[models."a"]\ninput = -1\noutput = 2', "must be a number >= 0"),
    ('as_of = 2026-01-02\n[models."a"]\ninput = true\noutput = 2', "must be a number"),
    ('as_of = 2026-01-02\nmodel = 1', "unknown top-level key 'model'"),
    ('as_of = 2026-01-02\n[models."a"]\ninput = 1\noutput = 2\n[models."A"]\ninput = 1\noutput = 2',
     "the same model as models.a"),
])
def test_broken_file_names_file_and_problem(tmp_path, text, problem):
    path = tmp_path / "broken.toml"
    path.write_text(text)
    with pytest.raises(ValueError) as error:
        load_prices(path)
    assert str(path) in str(error.value) and problem in str(error.value)


def test_missing_file_is_a_value_error(tmp_path, monkeypatch):
    monkeypatch.setenv(ENV_VAR, str(tmp_path / "nope.toml"))
    with pytest.raises(ValueError) as error:
        load_prices()
    assert str(error.value) == \
        f"prices file {tmp_path / 'nope.toml'}: cannot read it (No such file or directory)"


def test_a_folder_is_a_value_error(tmp_path):
    with pytest.raises(ValueError) as error:
        load_prices(tmp_path)
    assert str(error.value) == f"prices file {tmp_path}: cannot read it (Is a directory)"


def test_costs_are_whole_trillionths_of_a_dollar_without_float_noise(small):
    # 0.1 + 0.2 is 0.30000000000000004 in floats; a JSON report of costs showed such tails
    zeta = small.price_for("zeta")
    calls = [call_cost(zeta, TokenCounter(), MESSAGES, REPLY, n, 7, n // 3, n // 5)
             for n in (1234, 4321, 999, 17)]
    total = total_cost(calls)
    assert repr(total.usd) == repr(round(sum(c.usd for c in calls), 12))
    assert len(repr(total.usd).split(".")[1]) <= 12
    assert total_cost([call_cost(small.price_for("alpha"), TokenCounter(), MESSAGES, REPLY,
                                 n, 0) for n in (50_000, 100_000)]).usd == 0.3   # 0.1 + 0.2
    # nothing a price can say is lost: zeta's cached rate is $0.4 per million tokens
    assert cost(zeta, 0, cached_tokens=1) == 0.0000004
