"""A round the director has closed: its table links show the sheet and save nothing."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tournament", "0009_season"),
    ]

    operations = [
        migrations.AddField(
            model_name="round",
            name="closed_at",
            field=models.DateTimeField(blank=True, null=True, verbose_name="closed at"),
        ),
    ]
