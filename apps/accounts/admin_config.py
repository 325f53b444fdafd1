from django.contrib.admin.apps import AdminConfig as DjangoAdminConfig


class AdminConfig(DjangoAdminConfig):
    """The Django admin on the site of ``admin_site``: the API's sign-in rules and filters only by
    what each page offers."""

    default_site = "apps.accounts.admin_site.AdminSite"
