# The commands of the README.
.PHONY: run dev test check

run:  ## set up, load the demo tournament and serve the site for the laptop and the phones
	scripts/run.sh

dev:  ## the same with Django's development server (DEBUG on) on http://127.0.0.1:8000
	DEBUG=1 scripts/run.sh

test:  ## set up and run every test, on SQLite and on PostgreSQL
	scripts/test.sh

check:  ## the quick loop while developing: lint, types, the tests without a browser on SQLite
	scripts/check.sh
