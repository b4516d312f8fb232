"""Reading photographed score sheets: the paper the tables wrote, into the site.

``page`` finds the printed page in a photo (its corner marks, the perspective, the QR code),
``digits`` reads one box's handwriting (a small network, run with NumPy on the CPU, its weights
in ``digits.npz``, trained by ``scripts/train_digits.py``), ``scoring.reading`` chooses the digits
that obey the rules, and ``reading`` puts them together for a tournament's table.
"""
