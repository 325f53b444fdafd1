"""Content the staff edit: legal and help pages, the contact details and the review settings."""

import uuid

from django.conf import settings
from django.db import models
from django.db.models import Q


class PageSlug(models.TextChoices):
    TERMS = "terms", "Terms and Conditions"
    PRIVACY = "privacy", "Privacy Policy"
    ABOUT = "about", "About us"
    FAQ = "faq", "Frequently asked questions"


class Page(models.Model):
    """One rich-text page. ``content`` is HTML, sanitized whenever it is saved through the services."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    slug = models.CharField(max_length=16, choices=PageSlug.choices, unique=True)
    title = models.CharField(max_length=120)
    content = models.TextField(blank=True)
    updated_at = models.DateTimeField(auto_now=True)
    updated_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["slug"]
        constraints = [models.CheckConstraint(condition=Q(slug__in=PageSlug.values), name="cms_page_slug_valid")]

    def __str__(self) -> str:
        return self.title


class ContactDetails(models.Model):
    """The one row of contact details shown on Contact Us; contact-form mail goes to ``recipient_email``."""

    id = models.PositiveSmallIntegerField(primary_key=True, default=1, editable=False)
    full_name = models.CharField(max_length=100)
    location = models.CharField(max_length=255)
    recipient_email = models.EmailField(max_length=254)
    updated_at = models.DateTimeField(auto_now=True)
    updated_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        verbose_name = "contact details"
        verbose_name_plural = "contact details"
        constraints = [models.CheckConstraint(condition=Q(id=1), name="cms_contact_details_singleton")]

    def __str__(self) -> str:
        return f"Contact details ({self.recipient_email})"


class ReviewSettings(models.Model):
    """The one row saying whether renters' reviews appear at once or after a moderator approves them."""

    id = models.PositiveSmallIntegerField(primary_key=True, default=1, editable=False)
    auto_publish = models.BooleanField(
        default=True, help_text="On: reviews are published at once. Off: they wait for a moderator."
    )
    updated_at = models.DateTimeField(auto_now=True)
    updated_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        verbose_name = "review settings"
        verbose_name_plural = "review settings"
        constraints = [models.CheckConstraint(condition=Q(id=1), name="cms_review_settings_singleton")]

    def __str__(self) -> str:
        return "Review settings"
