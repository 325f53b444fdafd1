"""The one pricing engine: quotes, booking snapshots, extensions and invoices all call it.

Pure: no database, no clock. It takes rates and percentages as Decimals and a duration in hours,
and returns the breakdown the API stores as ``paymentDetails`` (spec section 3) plus the totals.

Rules (spec section 9, and docs/decisions.md "Bookings: pricing"):

- The duration is covered by the cheapest combination of the periods on offer (hour = 1 h,
  day = 24 h, week = 7 days, month = 30.44 days). The combination may cover a little more time
  than booked when that is cheaper (a whole day instead of 9 hours, say).
- subtotal = prices + services total; discount = listing discount % of the subtotal;
  convenience fee = processing fee % of the discounted subtotal; tax = host tax % of the
  discounted subtotal; price = discounted subtotal + fee + tax.
- An approved and paid extension adds its original amount plus the same fee and tax percentages
  (no discount); total = price + those extension amounts. Commission = commission % of the total.
- Every amount is rounded half-up to 2 places as it is computed; sums of rounded parts are exact.
"""

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from decimal import ROUND_CEILING, ROUND_FLOOR, ROUND_HALF_UP, Decimal

CENT = Decimal("0.01")
ZERO = Decimal("0.00")
HUNDRED = Decimal("100")

HOURLY, DAILY, WEEKLY, MONTHLY = "hourly", "daily", "weekly", "monthly"
DAYS_PER_MONTH = Decimal("30.44")
PERIOD_HOURS: dict[str, Decimal] = {
    HOURLY: Decimal("1"),
    DAILY: Decimal("24"),
    WEEKLY: Decimal("168"),
    MONTHLY: DAYS_PER_MONTH * 24,
}
PERIOD_LABELS = {HOURLY: "Hour", DAILY: "Day", WEEKLY: "Week", MONTHLY: "Month"}
PERIOD_ORDER = (HOURLY, DAILY, WEEKLY, MONTHLY)


class PricingError(ValueError):
    """The request cannot be priced (no rate for any period, a negative duration...)."""


def money(value: Decimal | int | str) -> Decimal:
    return Decimal(value).quantize(CENT, rounding=ROUND_HALF_UP)


def percent_of(amount: Decimal, percent: Decimal) -> Decimal:
    return money(Decimal(amount) * Decimal(percent) / HUNDRED)


def _ceil(value: Decimal) -> int:
    return int(value.to_integral_value(rounding=ROUND_CEILING))


def _floor(value: Decimal) -> int:
    return int(value.to_integral_value(rounding=ROUND_FLOOR))


@dataclass(frozen=True)
class PriceLine:
    period: str
    count: int
    rate: Decimal

    @property
    def total(self) -> Decimal:
        return money(self.rate * self.count)

    @property
    def hours(self) -> Decimal:
        return PERIOD_HOURS[self.period] * self.count

    def as_dict(self) -> dict:
        return {
            "priceDuration": self.period,
            "label": PERIOD_LABELS[self.period],
            "duration": self.count,
            "rate": str(money(self.rate)),
            "total": str(self.total),
        }


def cheapest_cover(hours: Decimal | int, rates: Mapping[str, Decimal | None]) -> list[PriceLine]:
    """The cheapest list of (period, count) whose lengths add up to at least ``hours``.

    Ties go to the combination covering less extra time, then to fewer lines. A period whose rate
    is missing is not on offer. Fast for any duration: a period is dropped when smaller ones
    cover its length for no more money, and then each smaller period is used fewer times than
    it takes to fill the next larger one (otherwise swapping them for that one is no dearer).
    """
    hours = Decimal(hours)
    if hours < 0:
        raise PricingError("The booking ends before it starts.")
    offered = [(p, Decimal(rates[p])) for p in PERIOD_ORDER if rates.get(p) is not None]
    if not offered:
        raise PricingError("This space has no price for the chosen period.")
    if hours == 0:
        return []

    # Drop a period that a smaller one covers for the same money or less.
    kept: list[tuple[str, Decimal]] = []
    for period, rate in offered:
        length = PERIOD_HOURS[period]
        dominated = any(_ceil(length / PERIOD_HOURS[p]) * r <= rate for p, r in kept)
        if not dominated:
            kept.append((period, rate))

    # Upper bound on each smaller period's count (fewer than it takes to fill the next kept one).
    bounds = [_ceil(PERIOD_HOURS[kept[i + 1][0]] / PERIOD_HOURS[kept[i][0]]) - 1 for i in range(len(kept) - 1)]
    largest, largest_rate = kept[-1]
    largest_len = PERIOD_HOURS[largest]
    smaller_cap = sum((PERIOD_HOURS[kept[i][0]] * bounds[i] for i in range(len(bounds))), Decimal(0))

    options: list[tuple] = []
    low = max(0, _floor((hours - smaller_cap) / largest_len))
    for top in range(low, _ceil(hours / largest_len) + 1):
        _search(kept, bounds, len(kept) - 2, hours - top * largest_len, [(largest, top, largest_rate)], hours, options)
    best = min(options, key=lambda option: option[0])
    return [PriceLine(period, count, rate) for period, count, rate in sorted(best[1], key=_order) if count > 0]


def _order(item: tuple) -> int:
    return -PERIOD_ORDER.index(item[0])


def _search(kept, bounds, index, remaining, chosen, hours, out) -> None:
    """Enumerate counts for kept[index] down to kept[0]; the smallest takes whatever is left."""
    if remaining <= 0 or index < 0:
        if remaining > 0:
            return
        lines = [c for c in chosen if c[1] > 0]
        cost = sum((money(rate * count) for _, count, rate in lines), ZERO)
        covered = sum((PERIOD_HOURS[p] * count for p, count, _ in lines), Decimal(0))
        out.append(((cost, covered - hours, len(lines)), lines))
        return
    period, rate = kept[index]
    length = PERIOD_HOURS[period]
    if index == 0:
        count = _ceil(remaining / length)
        _search(kept, bounds, -1, remaining - count * length, [*chosen, (period, count, rate)], hours, out)
        return
    for count in range(min(bounds[index], _ceil(remaining / length)) + 1):
        _search(kept, bounds, index - 1, remaining - count * length, [*chosen, (period, count, rate)], hours, out)


@dataclass(frozen=True)
class Service:
    title: str
    price: Decimal


@dataclass(frozen=True)
class Extension:
    """An extension's original amount (its time priced like a booking, before fee and tax)."""

    original_amount: Decimal
    approved: bool = True
    paid: bool = True


@dataclass(frozen=True)
class Percentages:
    discount: Decimal = ZERO
    processing_fee: Decimal = ZERO
    tax: Decimal = ZERO
    commission: Decimal = ZERO


@dataclass(frozen=True)
class Quote:
    lines: list[PriceLine]
    services: list[Service]
    percentages: Percentages
    hours: Decimal
    total_days: int
    extensions: list[Extension] = field(default_factory=list)

    @property
    def prices_total(self) -> Decimal:
        return sum((line.total for line in self.lines), ZERO)

    @property
    def services_total(self) -> Decimal:
        return sum((money(s.price) for s in self.services), ZERO)

    @property
    def subtotal(self) -> Decimal:
        return self.prices_total + self.services_total

    @property
    def discount(self) -> Decimal:
        return percent_of(self.subtotal, self.percentages.discount)

    @property
    def discounted_subtotal(self) -> Decimal:
        return self.subtotal - self.discount

    @property
    def convenience_fee(self) -> Decimal:
        return percent_of(self.discounted_subtotal, self.percentages.processing_fee)

    @property
    def tax(self) -> Decimal:
        return percent_of(self.discounted_subtotal, self.percentages.tax)

    @property
    def price(self) -> Decimal:
        """What the renter pays for the booking itself."""
        return self.discounted_subtotal + self.convenience_fee + self.tax

    @property
    def counted_extensions(self) -> list[Extension]:
        return [e for e in self.extensions if e.approved and e.paid]

    @property
    def extensions_total(self) -> Decimal:
        return sum(
            (extension_amounts(e.original_amount, self.percentages)["total"] for e in self.counted_extensions), ZERO
        )

    @property
    def total(self) -> Decimal:
        return self.price + self.extensions_total

    @property
    def commission(self) -> Decimal:
        return percent_of(self.total, self.percentages.commission)

    @property
    def host_earnings(self) -> Decimal:
        return self.total - self.commission

    @property
    def selected_price(self) -> dict | None:
        if not self.lines:
            return None
        main = self.lines[0]
        return {"value": main.period, "label": PERIOD_LABELS[main.period], "rate": str(money(main.rate))}

    def payment_details(self) -> dict:
        """The ``paymentDetails`` JSON of spec section 3, with the computed amounts beside it."""
        return {
            "prices": [line.as_dict() for line in self.lines],
            "totalAmount": str(self.prices_total),
            "totalDays": self.total_days,
            "totalHours": str(self.hours.normalize()) if self.hours else "0",
            "servicesAndAddOns": [{"title": s.title, "price": str(money(s.price))} for s in self.services],
            "servicesTotal": str(self.services_total),
            "selectedPrice": self.selected_price,
            "subtotal": str(self.subtotal),
            "discountPercent": str(self.percentages.discount),
            "discount": str(self.discount),
            "discountedSubtotal": str(self.discounted_subtotal),
            "processingFeePercent": str(self.percentages.processing_fee),
            "convenienceFee": str(self.convenience_fee),
            "taxPercent": str(self.percentages.tax),
            "tax": str(self.tax),
            "price": str(self.price),
            "extensionsTotal": str(self.extensions_total),
            "total": str(self.total),
            "commissionPercent": str(self.percentages.commission),
            "commission": str(self.commission),
        }


def extension_amounts(original_amount: Decimal, percentages: Percentages) -> dict[str, Decimal]:
    """An extension's original amount with the booking's fee and tax percentages (no discount)."""
    original = money(original_amount)
    fee = percent_of(original, percentages.processing_fee)
    tax = percent_of(original, percentages.tax)
    return {"original": original, "fee": fee, "tax": tax, "total": original + fee + tax}


def quote(
    *,
    hours: Decimal | int,
    rates: Mapping[str, Decimal | None],
    percentages: Percentages,
    services: Iterable[Service] = (),
    extensions: Iterable[Extension] = (),
    total_days: int | None = None,
) -> Quote:
    hours = Decimal(hours)
    lines = cheapest_cover(hours, rates)
    days = total_days if total_days is not None else _ceil(hours / 24) if hours > 0 else 0
    return Quote(
        lines=lines,
        services=list(services),
        percentages=percentages,
        hours=hours,
        total_days=days,
        extensions=list(extensions),
    )
