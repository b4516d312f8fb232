// "Copy the text" on the page "Share the result". Without JavaScript the button stays hidden
// and the text is in its box to select and copy, or to download as a file. The clipboard API
// needs a secure page (the laptop's own 127.0.0.1 is one; its network address is not): there
// the text is selected and copied the older way.
(() => {
  "use strict";
  for (const button of document.querySelectorAll("[data-copy]")) {
    const source = document.getElementById(button.dataset.copy);
    const status = button.parentElement.querySelector("[data-copy-status]");
    if (!source) {
      continue;
    }
    button.hidden = false;
    button.addEventListener("click", async () => {
      let copied = false;
      if (navigator.clipboard && window.isSecureContext) {
        try {
          await navigator.clipboard.writeText(source.value);
          copied = true;
        } catch (_error) {
          copied = false;
        }
      }
      if (!copied) {
        source.focus();
        source.select();
        try {
          copied = document.execCommand("copy");
        } catch (_error) {
          copied = false;
        }
      }
      if (status) {
        status.textContent = copied ? button.dataset.copied : button.dataset.failed;
      }
    });
  }
})();
