# The two commands of the README.
.PHONY: run test

run:  ## set up, load the demo tournament and serve the site on http://127.0.0.1:8000
	scripts/run.sh

test:  ## set up and run every test, on SQLite and on PostgreSQL
	scripts/test.sh
