from django.contrib.auth import logout
from django.shortcuts import redirect
from django.urls import resolve
from django.views.decorators.http import require_POST


@require_POST
def sign_out(request):
    logout(request)
    return redirect("/")


def auth_page(request):
    """/login, /register and /reset-password: the home page, over which the navbar island opens the
    authentication modal at that step. Without JavaScript the page says that signing in needs it."""
    home = resolve("/")
    response = home.func(request, *home.args, **home.kwargs)
    response["X-Robots-Tag"] = "noindex"
    return response
