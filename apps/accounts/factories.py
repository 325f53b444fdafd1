import factory

from .models import Role, User

PASSWORD = "Demo1234!"


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = User
        skip_postgeneration_save = True

    email = factory.Sequence(lambda n: f"user{n}@example.com")
    role = Role.RENTER
    first_name = factory.Faker("first_name")
    last_name = factory.Faker("last_name")
    account_verified = True
    password = factory.PostGenerationMethodCall("set_password", PASSWORD)

    @factory.post_generation
    def _save(obj, create, extracted, **kwargs):
        if create:
            obj.save()
