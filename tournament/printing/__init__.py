"""Printing: score sheets, blank sheets, seating lists and standings as PDF (WeasyPrint, from
HTML templates with print CSS that also print from the browser), and the final workbook.

``documents`` gathers what each printout shows, ``form`` draws the score sheet's grid,
``printouts`` makes each printout (template, contents, file name) for the views and the
``print_*`` commands alike (``commands`` holds what those share), ``render`` turns it into a PDF,
``links`` says where a sheet's QR code points (the address phones open:
``tournament.venue.site_address``), ``views`` and ``urls`` put them on the site.
"""
