"""Server-rendered account pages: choosing the first password from an invitation link."""

from django.shortcuts import render
from django.views.decorators.cache import never_cache
from django.views.decorators.debug import sensitive_post_parameters

from apps.core.exceptions import InvalidInput

from . import services_users


@never_cache
@sensitive_post_parameters("password", "confirm_password")
def set_password(request):
    uid = request.POST.get("uid") or request.GET.get("uid", "")
    token = request.POST.get("token") or request.GET.get("token", "")
    context = {"uid": uid[:64], "token": token[:128], "errors": [], "done": False, "invalid": False}
    try:
        user = services_users.invitation_user(uid=uid[:64], token=token[:128])
    except InvalidInput as exc:
        context["invalid"] = True
        context["errors"] = [exc.message]
        return render(request, "pages/set_password.html", context, status=400)
    context["email"] = user.email
    if request.method == "POST":
        password = request.POST.get("password", "")
        if password != request.POST.get("confirm_password", ""):
            context["errors"] = ["Passwords does not match"]
        else:
            try:
                services_users.password_set_from_link(uid=uid[:64], token=token[:128], password=password[:200])
                context["done"] = True
            except InvalidInput as exc:
                context["errors"] = exc.errors.get("password") or [exc.message]
    return render(request, "pages/set_password.html", context, status=400 if context["errors"] else 200)
