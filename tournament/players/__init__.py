"""Players: registering them (one by one, pasted, imported), withdrawals, pairs kept apart."""
