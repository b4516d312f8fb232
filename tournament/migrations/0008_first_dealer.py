# The first dealer: the tournament's rule (existing tournaments keep "the site sets it") and
# each table's drawn first dealer (not drawn yet: null).

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('tournament', '0007_sheet_drafts'),
    ]

    operations = [
        migrations.AddField(
            model_name='tournament',
            name='first_dealer_rule',
            field=models.CharField(choices=[('site', 'the site sets the first dealer'), ('drawn', 'the table draws the first dealer')], default='site', max_length=8, verbose_name='first dealer'),
        ),
        migrations.AddField(
            model_name='table',
            name='first_dealer_seat',
            field=models.PositiveSmallIntegerField(blank=True, null=True, verbose_name="first dealer's seat"),
        ),
        migrations.AddConstraint(
            model_name='table',
            constraint=models.CheckConstraint(condition=models.Q(('first_dealer_seat__lte', 5)), name='table_first_dealer_0_5'),
        ),
    ]
