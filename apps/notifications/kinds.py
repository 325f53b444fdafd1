"""Every kind of notification the product sends, with its category and the default channels.

A user's ``notification_settings`` (JSON on User) holds overrides only, keyed by kind:
``{"bookingApproved": {"inApp": true, "email": false, "push": true}, ...}``. Anything missing
falls back to the defaults here, so adding a kind never needs a data migration. The settings API
builds its form from ``KINDS`` and saves through ``normalize_settings``.
"""

from dataclasses import dataclass

CHANNELS = ("inApp", "email", "push")


@dataclass(frozen=True)
class Kind:
    key: str
    type: str  # the Notification.type the client branches on (listing, verificationRequest, booking, ...)
    label: str  # shown on the settings page
    audience: str  # who receives it: renter, host, staff or anyone
    in_app: bool = True
    email: bool = True
    push: bool = True

    def defaults(self) -> dict[str, bool]:
        return {"inApp": self.in_app, "email": self.email, "push": self.push}


_KINDS = [
    # Bookings
    Kind("bookingRequested", "booking", "A renter requested a booking", "host"),
    Kind("bookingApproved", "booking", "Your booking was approved", "renter"),
    Kind("bookingRejected", "booking", "Your booking was rejected", "renter"),
    Kind("bookingCancelled", "booking", "A booking was cancelled", "anyone"),
    Kind("bookingExpired", "booking", "A booking request expired unanswered", "anyone"),
    Kind("extensionRequested", "booking", "A renter asked to extend a booking", "host"),
    Kind("extensionApproved", "booking", "Your extension request was approved", "renter"),
    Kind("extensionRejected", "booking", "Your extension request was rejected", "renter"),
    Kind("calendarConflict", "booking", "An imported calendar overlaps a booking", "host"),
    # Money
    Kind("paymentCaptured", "payment", "A payment was taken", "anyone"),
    Kind("paymentRefunded", "payment", "A payment was refunded", "anyone"),
    Kind("paymentActionRequired", "payment", "Your bank asks you to confirm a payment", "renter"),
    Kind("payoutReleased", "payout", "A payout was released", "host"),
    # Disputes
    Kind("disputeRaised", "dispute", "A dispute was raised", "anyone"),
    Kind("disputeApproved", "dispute", "A dispute was approved", "anyone"),
    Kind("disputeRejected", "dispute", "A dispute was rejected", "anyone"),
    # Listings and verification
    Kind("listingSubmitted", "listing", "A listing is waiting for review", "staff", email=False),
    Kind("listingApproved", "listing", "Your listing was approved", "host"),
    Kind("listingRejected", "listing", "Your listing was rejected", "host"),
    Kind("verificationRequested", "verificationRequest", "A host asked for verification", "staff", email=False),
    Kind("verificationApproved", "verificationRequest", "Your verification was approved", "host"),
    Kind("verificationRejected", "verificationRequest", "Your verification was rejected", "host"),
    # Premium membership
    Kind("subscriptionPaid", "subscription", "Your premium membership was paid", "host"),
    Kind("subscriptionCancelled", "subscription", "Your premium membership was cancelled", "host"),
    Kind("subscriptionExpiring", "subscription", "Your premium membership is about to expire", "host"),
    # Chat: the Message count, not the bell (no in-app row; see apps.messaging)
    Kind("messageReceived", "message", "You received a message", "anyone", in_app=False, email=False),
]

KINDS: dict[str, Kind] = {kind.key: kind for kind in _KINDS}


def effective_settings(raw: dict | None) -> dict[str, dict[str, bool]]:
    """The user's settings for every kind: stored overrides on top of the defaults."""
    raw = raw if isinstance(raw, dict) else {}
    result = {}
    for key, kind in KINDS.items():
        channels = kind.defaults()
        stored = raw.get(key)
        if isinstance(stored, dict):
            for channel in CHANNELS:
                if isinstance(stored.get(channel), bool):
                    channels[channel] = stored[channel]
        result[key] = channels
    return result


def channels_for(raw: dict | None, kind: str) -> dict[str, bool]:
    """The channels enabled for one kind (cheap: looks at one key)."""
    channels = KINDS[kind].defaults()
    stored = raw.get(kind) if isinstance(raw, dict) else None
    if isinstance(stored, dict):
        for channel in CHANNELS:
            if isinstance(stored.get(channel), bool):
                channels[channel] = stored[channel]
    return channels


def normalize_settings(data: object) -> dict[str, dict[str, bool]]:
    """Validate settings sent by a client; raises ValueError with a sentence for anything unknown."""
    if not isinstance(data, dict):
        raise ValueError("Notification settings must be an object keyed by notification kind.")
    result: dict[str, dict[str, bool]] = {}
    for key, channels in data.items():
        if key not in KINDS:
            raise ValueError(f"Unknown notification kind: {str(key)[:50]}.")
        if not isinstance(channels, dict):
            raise ValueError(f"Settings for {key} must be an object with inApp, email and push.")
        result[key] = {}
        for channel, value in channels.items():
            if channel not in CHANNELS:
                raise ValueError(f"Unknown channel {str(channel)[:20]} for {key}; use inApp, email or push.")
            if not isinstance(value, bool):
                raise ValueError(f"{key}.{channel} must be true or false.")
            result[key][channel] = value
    return result
