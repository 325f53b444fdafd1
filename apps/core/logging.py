"""Log records the site adjusts before any handler sees them (``LOGGING`` in config/settings.py)."""

import logging


class RefusalsOnOneLine(logging.Filter):
    """A refusal (a 4xx such as the Django admin's 403 for a page a role may not open, or a
    disallowed lookup that Django reports as suspicious) is logged as its one-line message. Its
    traceback only points at the framework's own ``raise``, says nothing of a defect, and at a few
    lines each buries the errors that matter."""

    def filter(self, record: logging.LogRecord) -> bool:
        status = getattr(record, "status_code", None)
        if record.name.startswith("django.security") or (isinstance(status, int) and 400 <= status < 500):
            record.exc_info = None
            record.exc_text = None
        return True
