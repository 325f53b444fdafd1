from django.urls import path

from . import views, views_settings, views_users, views_verification

app_name = "accounts"

urlpatterns = [
    path("register", views.RegisterView.as_view(), name="register"),
    path("login", views.LoginView.as_view(), name="login"),
    path("verify-otp", views.VerifyOtpView.as_view(), name="verify-otp"),
    path("forgot-password", views.ForgotPasswordView.as_view(), name="forgot-password"),
    path("reset-password", views.ResetPasswordView.as_view(), name="reset-password"),
    path("send/otp", views.ResendOtpView.as_view(), name="send-otp"),
    path("token/refresh", views.TokenRefreshView.as_view(), name="token-refresh"),
    path("logout", views.LogoutView.as_view(), name="logout"),
    path("me", views.MeView.as_view(), name="me"),
    path("profile/<uuid:user_id>", views.ProfileView.as_view(), name="profile"),
    # Back office: users and staff
    path("hosts", views_users.HostListView.as_view(), name="hosts"),
    path("renters", views_users.RenterListView.as_view(), name="renters"),
    path("view-user/<uuid:user_id>", views_users.ViewUserView.as_view(), name="view-user"),
    path("update-status/<uuid:user_id>", views_users.UserStatusView.as_view(), name="update-status"),
    path("addhost", views_users.AddHostView.as_view(), name="addhost"),
    path("sub-hosts", views_users.SubHostListView.as_view(), name="sub-hosts"),
    path("sub-hosts/<uuid:user_id>", views_users.SubHostDetailView.as_view(), name="sub-host"),
    path("add-subhost", views_users.AddSubHostView.as_view(), name="add-subhost"),
    path("moderators", views_users.ModeratorListView.as_view(), name="moderators"),
    path("moderators/<uuid:user_id>", views_users.ModeratorDetailView.as_view(), name="moderator"),
    path("add-moderator", views_users.AddModeratorView.as_view(), name="add-moderator"),
    path("resend-invitation/<uuid:user_id>", views_users.ResendInvitationView.as_view(), name="resend-invitation"),
    path("set-password", views_users.SetPasswordView.as_view(), name="set-password"),
    # Identity verification
    path("verification-docs", views_verification.VerificationDocsView.as_view(), name="verification-docs"),
    path(
        "verification-docs/<uuid:document_id>/file",
        views_verification.VerificationDocFileView.as_view(),
        name="verification-doc-file",
    ),
    path(
        "verification-requests", views_verification.VerificationRequestListView.as_view(), name="verification-requests"
    ),
    path(
        "verification-requests/<uuid:request_id>",
        views_verification.VerificationRequestDetailView.as_view(),
        name="verification-request",
    ),
    path(
        "verification-requests/update-status/<uuid:request_id>",
        views_verification.VerificationDecisionView.as_view(),
        name="verification-request-update-status",
    ),
    # General settings
    path("notification-settings", views_settings.NotificationSettingsView.as_view(), name="notification-settings"),
    path("change-password", views_settings.PasswordChangeView.as_view(), name="change-password"),
    path("change-email", views_settings.EmailChangeView.as_view(), name="change-email"),
    path("change-email/verify", views_settings.EmailChangeVerifyView.as_view(), name="change-email-verify"),
    path("tax", views_settings.TaxView.as_view(), name="tax"),
    path("delete-account", views_settings.AccountDeleteView.as_view(), name="delete-account"),
]
