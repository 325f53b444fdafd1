from django.urls import path

from . import views

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
]
