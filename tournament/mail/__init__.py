"""E-mail: sending (and saying when it is off), the address of an account, the password-reset
mail's throttle, invitations by mail and the notice to a club's admins when a role changes.

Below ``tournament.clubs`` in the layers: the club's services send the role notice, so this
package knows nothing of the site's pages; the views that mail something (the team and club
pages, the password reset in ``tournament.venue``) build their links and hand them over.
"""
