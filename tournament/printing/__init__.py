"""Printing: score sheets, blank sheets, seating lists and standings as PDF (WeasyPrint, from
HTML templates with print CSS that also print from the browser), and the final workbook.

``documents`` gathers what each printout shows, ``form`` draws the score sheet's grid,
``render`` turns a template into a PDF, ``links`` says where a sheet's QR code points, ``views``
and ``urls`` put them on the site.
"""
