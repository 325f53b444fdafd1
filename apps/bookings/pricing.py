"""The one pricing engine: quotes, booking snapshots, extensions and invoices all call it.

Pure: no database, no clock. It takes rates and percentages as Decimals and a duration in hours,
and returns the breakdown the API stores as ``paymentDetails`` (spec section 3) plus the totals.

Rules (spec section 9, and docs/decisions/bookings/, the pricing records):

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
    is missing is not on offer.

    Exact and fast: periods are chosen from the largest down, the smallest taking whatever is
    left. Hours, days and weeks divide one another, so once the larger periods are fixed the
    cost is, in each smaller period's count, a minimum of straight lines: its cheapest value
    lies at an end of the range (none, or the most that fits, or one more than fits). A month
    (30.44 days) is not a whole number of weeks or days, so every month count is tried.
    """
    hours = Decimal(hours)
    if hours < 0:
        raise PricingError("The booking ends before it starts.")
    offered = [(p, Decimal(rates[p])) for p in reversed(PERIOD_ORDER) if rates.get(p) is not None]
    if not offered:
        raise PricingError("This space has no price for the chosen period.")
    if hours == 0:
        return []
    options: list[tuple] = []
    _search(offered, 0, hours, [], hours, options)
    best = min(options, key=lambda option: option[0])
    return [PriceLine(period, count, rate) for period, count, rate in best[1]]


def _counts_to_try(period: str, remaining: Decimal) -> Iterable[int]:
    length = PERIOD_HOURS[period]
    most = _ceil(remaining / length) if remaining > 0 else 0
    if period == MONTHLY:
        return range(most + 1)
    return sorted({0, _floor(remaining / length) if remaining > 0 else 0, most})


def _search(offered, index, remaining, chosen, hours, out) -> None:
    """Try counts for offered[index] (largest first); the last period covers what is left."""
    if index == len(offered) - 1 or remaining <= 0:
        if remaining > 0:
            period, rate = offered[index]
            chosen = [*chosen, (period, _ceil(remaining / PERIOD_HOURS[period]), rate)]
        lines = [line for line in chosen if line[1] > 0]
        cost = sum((money(rate * count) for _, count, rate in lines), ZERO)
        covered = sum((PERIOD_HOURS[p] * count for p, count, _ in lines), Decimal(0))
        out.append(((cost, covered - hours, len(lines)), lines))
        return
    period, rate = offered[index]
    for count in _counts_to_try(period, remaining):
        _search(
            offered, index + 1, remaining - count * PERIOD_HOURS[period], [*chosen, (period, count, rate)], hours, out
        )


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
