from .views import widget_urls

app_name = "statistics"

urlpatterns = widget_urls()
