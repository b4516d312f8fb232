"""The result a club shares ("Uitslag delen"): the standings as a text to paste into WhatsApp or
an e-mail, a one-page PDF for the notice board, a PNG of it for social media, and the public
page's address with its QR code. Above ``standings`` (what it shows) and ``printing`` (how a
PDF is made)."""
