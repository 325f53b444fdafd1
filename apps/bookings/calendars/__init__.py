"""Two-way calendar sync for listings.

- ``fetch``: reads a host's feed URL safely (https only, no private addresses after DNS resolution
  and on every redirect, size, time and redirect caps, conditional GET);
- ``parse``: turns a feed into the blocks it holds within the booking horizon (``icalendar`` and
  ``recurring-ical-events``);
- ``sync``: the services that add, remove and refresh a listing's imported calendars;
- ``export``: the per-listing and per-host feeds other calendars read.

The blocks themselves are ``ExternalBlock`` rows; the availability rules read them in the one
place they decide (``selectors.time_blocked_q`` and its callers).
"""
