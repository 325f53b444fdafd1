"""Every receiver the project connects is declared in its app's ``subscribers.py`` (``SUBSCRIBERS``),
so reading those lists finds everything that reacts to a signal."""

import importlib
import weakref

from django.apps import apps as django_apps
from django.contrib.auth import signals as auth_signals
from django.core import signals as core_signals
from django.db.models import signals as model_signals
from django.dispatch import Signal
from django.utils.module_loading import module_has_submodule


def _project_apps():
    return [config for config in django_apps.get_app_configs() if config.name.startswith("apps.")]


def _declared() -> set[tuple[int, object, str]]:
    rows = set()
    for config in _project_apps():
        if module_has_submodule(config.module, "subscribers"):
            for row in importlib.import_module(f"{config.name}.subscribers").SUBSCRIBERS:
                rows.add((id(row.signal), row.receiver, row.uid))
    return rows


def _signals() -> list[Signal]:
    modules = [model_signals, core_signals, auth_signals]
    for config in _project_apps():
        if module_has_submodule(config.module, "signals"):
            modules.append(importlib.import_module(f"{config.name}.signals"))
    found = [value for module in modules for value in vars(module).values() if isinstance(value, Signal)]
    # Storages listen to settings changed by tests (``FileSystemStorage``): not the project's receivers.
    return [signal for signal in found if signal is not core_signals.setting_changed]


def _connected_by_the_project() -> set[tuple[int, object, str]]:
    rows = set()
    for signal in _signals():
        for lookup_key, receiver, _sender, _is_async in signal.receivers:
            if isinstance(receiver, weakref.ReferenceType):
                receiver = receiver()
            if receiver is None or not getattr(receiver, "__module__", "").startswith("apps."):
                continue
            uid = lookup_key[0]
            rows.add((id(signal), receiver, uid if isinstance(uid, str) else repr(uid)))
    return rows


def test_every_receiver_of_the_project_is_a_declared_subscriber():
    undeclared = _connected_by_the_project() - _declared()
    assert not undeclared, (
        "Receivers connected outside an app's subscribers.py (add them to its SUBSCRIBERS): "
        + ", ".join(f"{receiver.__module__}.{receiver.__qualname__}" for _, receiver, _ in undeclared)
    )


def test_every_declared_subscriber_is_connected():
    missing = _declared() - _connected_by_the_project()
    assert not missing, ", ".join(f"{receiver.__qualname__}" for _, receiver, _ in missing)


def test_a_receiver_connected_elsewhere_is_caught():
    from apps.bookings.signals import booking_status_changed

    def stray(sender, **kwargs):
        pass

    stray.__module__ = "apps.somewhere"
    booking_status_changed.connect(stray, dispatch_uid="stray", weak=False)
    try:
        assert any(receiver is stray for _, receiver, _ in _connected_by_the_project() - _declared())
    finally:
        booking_status_changed.disconnect(dispatch_uid="stray")
