"""The pricing engine's rules and invariants (no database)."""

import itertools
import math
from decimal import Decimal

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from apps.bookings.pricing import (
    PERIOD_HOURS,
    Extension,
    Percentages,
    PricingError,
    Service,
    cheapest_cover,
    extension_amounts,
    money,
    quote,
)

EVENT_RATES = {"hourly": Decimal("50"), "daily": Decimal("300"), "weekly": Decimal("1500")}

rates_st = st.fixed_dictionaries(
    {},
    optional={
        p: st.decimals(min_value=Decimal("0.01"), max_value=Decimal("5000"), places=2)
        for p in ("hourly", "daily", "weekly", "monthly")
    },
).filter(bool)
percent_st = st.decimals(min_value=Decimal("0"), max_value=Decimal("100"), places=2)
hours_st = st.integers(min_value=1, max_value=24 * 400)


def brute_force_cost(hours: int, rates: dict) -> Decimal:
    """Try every count up to one more than needed for each period on its own."""
    periods = list(rates)
    ranges = [range(math.ceil(Decimal(hours) / PERIOD_HOURS[p]) + 1) for p in periods]
    best = None
    for counts in itertools.product(*ranges):
        covered = sum(PERIOD_HOURS[p] * c for p, c in zip(periods, counts, strict=True))
        if covered >= hours:
            cost = sum(money(rates[p] * c) for p, c in zip(periods, counts, strict=True))
            best = cost if best is None else min(best, cost)
    return best


def test_hours_under_a_day_price_by_the_hour():
    lines = cheapest_cover(5, EVENT_RATES)
    assert [(line.period, line.count, line.total) for line in lines] == [("hourly", 5, Decimal("250.00"))]


def test_a_day_rate_wins_when_cheaper_than_the_hours():
    lines = cheapest_cover(9, EVENT_RATES)
    assert [(line.period, line.count) for line in lines] == [("daily", 1)]


def test_weeks_days_and_hours_combine():
    lines = cheapest_cover(24 * 7 + 2, EVENT_RATES)
    assert [(line.period, line.count) for line in lines] == [("weekly", 1), ("hourly", 2)]


def test_a_month_is_30_44_days():
    rates = {"daily": Decimal("30"), "monthly": Decimal("500")}
    assert [(x.period, x.count) for x in cheapest_cover(24 * 30, rates)] == [("monthly", 1)]
    # 31 days: a month (30.44 days) plus one day.
    assert [(x.period, x.count) for x in cheapest_cover(24 * 31, rates)] == [("monthly", 1), ("daily", 1)]


def test_no_rate_cannot_be_priced():
    with pytest.raises(PricingError):
        cheapest_cover(3, {"hourly": None})


def test_the_spec_example_of_every_rule():
    q = quote(
        hours=56,
        rates=EVENT_RATES,
        percentages=Percentages(
            discount=Decimal("10"), processing_fee=Decimal("3"), tax=Decimal("13"), commission=Decimal("10")
        ),
        services=[Service("Catering", Decimal("20"))],
        extensions=[
            Extension(Decimal("100")),
            Extension(Decimal("999"), paid=False),
            Extension(Decimal("5"), approved=False),
        ],
    )
    assert q.prices_total == Decimal("900.00")  # 3 days beat 2 days and 8 hours
    assert q.services_total == Decimal("20.00")
    assert q.discount == Decimal("92.00")  # 10 % of 920
    assert q.discounted_subtotal == Decimal("828.00")
    assert q.convenience_fee == Decimal("24.84")  # 3 % of 828
    assert q.tax == Decimal("107.64")  # 13 % of 828
    assert q.price == Decimal("960.48")
    assert q.extensions_total == Decimal("116.00")  # 100 + 3 + 13; unpaid and unapproved ones do not count
    assert q.total == Decimal("1076.48")
    assert q.commission == Decimal("107.65")  # 10 % of 1076.48, half-up
    details = q.payment_details()
    assert details["prices"] == [
        {"priceDuration": "daily", "label": "Day", "duration": 3, "rate": "300.00", "total": "900.00"}
    ]
    assert details["servicesTotal"] == "20.00"
    assert details["selectedPrice"]["value"] == "daily"
    assert details["totalDays"] == 3


def test_half_up_rounding():
    assert money(Decimal("0.005")) == Decimal("0.01")
    assert money(Decimal("2.675")) == Decimal("2.68")
    amounts = extension_amounts(Decimal("10.50"), Percentages(processing_fee=Decimal("5"), tax=Decimal("5")))
    assert amounts["fee"] == Decimal("0.53")  # 0.525 rounds up


@settings(max_examples=150, deadline=None)
@given(hours=st.integers(min_value=1, max_value=24 * 10), rates=rates_st)
def test_cover_is_the_cheapest_possible(hours, rates):
    lines = cheapest_cover(hours, rates)
    assert sum(line.hours for line in lines) >= hours
    assert sum(line.total for line in lines) == brute_force_cost(hours, rates)


@settings(max_examples=150, deadline=None)
@given(hours=hours_st, rates=rates_st)
# Five weeks ($5.95) beat a month and two hours ($5.96) for 732 hours: a smaller period may be
# used more often than it takes to fill a larger one.
@example(hours=732, rates={"hourly": Decimal("0.02"), "weekly": Decimal("1.19"), "monthly": Decimal("5.92")})
def test_cover_is_never_dearer_than_any_single_period(hours, rates):
    cost = sum(line.total for line in cheapest_cover(hours, rates))
    for period, rate in rates.items():
        single = money(rate * math.ceil(Decimal(hours) / PERIOD_HOURS[period]))
        assert cost <= single


@settings(max_examples=100, deadline=None)
@given(hours=st.integers(min_value=1, max_value=24 * 60), rates=rates_st)
def test_longer_never_costs_less(hours, rates):
    shorter = sum(line.total for line in cheapest_cover(hours, rates))
    longer = sum(line.total for line in cheapest_cover(hours + 1, rates))
    assert longer >= shorter


@settings(max_examples=200, deadline=None)
@given(
    hours=hours_st,
    rates=rates_st,
    discount=percent_st,
    fee=percent_st,
    tax=percent_st,
    commission=percent_st,
    services=st.lists(st.decimals(min_value=Decimal("0"), max_value=Decimal("1000"), places=2), max_size=4),
    extensions=st.lists(
        st.tuples(
            st.decimals(min_value=Decimal("0"), max_value=Decimal("5000"), places=2), st.booleans(), st.booleans()
        ),
        max_size=3,
    ),
)
def test_totals_add_up(hours, rates, discount, fee, tax, commission, services, extensions):
    percentages = Percentages(discount=discount, processing_fee=fee, tax=tax, commission=commission)
    q = quote(
        hours=hours,
        rates=rates,
        percentages=percentages,
        services=[Service(f"s{i}", p) for i, p in enumerate(services)],
        extensions=[Extension(a, approved=ap, paid=pd) for a, ap, pd in extensions],
    )
    amounts = [q.subtotal, q.discount, q.convenience_fee, q.tax, q.price, q.total, q.commission]
    for amount in amounts:
        assert amount >= 0
        assert amount == amount.quantize(Decimal("0.01"))
    assert q.discount <= q.subtotal
    assert q.price == q.subtotal - q.discount + q.convenience_fee + q.tax
    counted = [a for a, ap, pd in extensions if ap and pd]
    assert q.total == q.price + sum((extension_amounts(a, percentages)["total"] for a in counted), Decimal("0.00"))
    assert q.commission <= q.total
    if discount == 100:
        assert q.price == 0 or q.total == q.extensions_total
