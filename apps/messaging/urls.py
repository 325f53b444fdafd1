from django.urls import path

from . import views

app_name = "messaging"

urlpatterns = [
    path("chat/get-all", views.ConversationListView.as_view(), name="list"),
    path("chat/start", views.ConversationStartView.as_view(), name="start"),
    path("chat/get-single/<str:conversation_id>", views.ConversationDetailView.as_view(), name="detail"),
    path("chat/messages/<str:conversation_id>", views.MessageListView.as_view(), name="messages"),
    path("chat/dispute/<str:dispute_id>", views.DisputeConversationView.as_view(), name="dispute"),
    path("chat/send/<str:conversation_id>", views.MessageSendView.as_view(), name="send"),
    path("chat/mark-as-read/<str:conversation_id>", views.ConversationMarkReadView.as_view(), name="read"),
    path("chat/get-notifications", views.MessageNotificationsView.as_view(), name="notifications"),
    path("chat/attachment/<str:attachment_id>", views.AttachmentView.as_view(), name="attachment"),
]
