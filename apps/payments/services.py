"""Booking payments: checkout, authorisation, capture, release, extensions, refunds."""
