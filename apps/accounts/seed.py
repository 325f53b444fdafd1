"""Demo accounts (README lists them). Every password is Demo1234!."""

from allauth.account.models import EmailAddress

from .models import Role, User

DEMO_PASSWORD = "Demo1234!"

DEMO_USERS = [
    # email, role, first name, last name, user name, city, country
    ("admin@example.com", Role.ADMIN, "Alex", "Admin", "", "Toronto", "Canada"),
    ("moderator@example.com", Role.MODERATOR, "Morgan", "Moderator", "", "Toronto", "Canada"),
    ("host@example.com", Role.HOST, "Hannah", "Host", "hannah", "Toronto", "Canada"),
    ("host2@example.com", Role.HOST, "Hugo", "Harper", "hugo", "New York", "United States"),
    ("renter@example.com", Role.RENTER, "Riley", "Renter", "riley", "Vancouver", "Canada"),
    ("renter2@example.com", Role.RENTER, "Rosa", "Reyes", "rosa", "London", "United Kingdom"),
]


def _ensure(email: str, role: str, first: str, last: str, user_name: str, city: str, country: str, host=None) -> User:
    user = User.objects.filter(email=email).first()
    if user is None:
        user = User(email=email, role=role, host=host)
        user.set_password(DEMO_PASSWORD)
    user.first_name, user.last_name, user.user_name, user.city, user.country = first, last, user_name, city, country
    user.account_verified = True
    if role == Role.HOST:
        user.is_verified = True
        user.tax = 13
    user.save()
    EmailAddress.objects.update_or_create(user=user, email=email, defaults={"primary": True, "verified": True})
    return user


def seed(stdout) -> None:
    users = {email: _ensure(email, *rest) for email, *rest in DEMO_USERS}
    _ensure(
        "subhost@example.com", Role.SUB_HOST, "Sam", "Subhost", "", "Toronto", "Canada", host=users["host@example.com"]
    )
    stdout.write(f"  {User.objects.filter(email__endswith='@example.com').count()} demo accounts")
