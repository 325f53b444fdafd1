"""One normal form for the addresses that name accounts.

An e-mail is stored, looked up and keyed (failed-login counts, unknown-address ids) in the same
form: Unicode NFKC, case-folded, NFKC again, spaces around it removed. Lookups compare that form
for equality; nothing compares case-insensitively in the database, whose ``UPPER()`` maps
look-alikes (U+017F, U+0131) onto ASCII letters and so would find an account the lockout key
does not name.
"""

import unicodedata


def normalize_email(value: str) -> str:
    folded = unicodedata.normalize("NFKC", (value or "").strip()).casefold()
    return unicodedata.normalize("NFKC", folded).strip()
