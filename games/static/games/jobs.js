// PDF buttons of the session's end: ask the API for the document (202 with its status URL in
// `url`, or 200 when an up-to-date one exists), then poll that URL until it says ready (a
// link to `download` appears) or failed (with `error`).
(function () {
  "use strict";
  var t = window.scorekeeperText;
  var token = document.querySelector("#pdfs input[name=csrfmiddlewaretoken]");

  function link(status, href) {
    var a = document.createElement("a");
    a.href = href;
    a.textContent = t("download");
    status.replaceChildren(a);
  }

  function poll(statusUrl, status, tries) {
    fetch(statusUrl, { credentials: "same-origin", headers: { Accept: "application/json" } })
      .then(function (r) { return r.json(); })
      .then(function (job) {
        if (job.status === "ready") return link(status, job.download);
        if (job.status === "failed") { status.textContent = t("failed", { error: job.error || t("try_again") }); return; }
        status.textContent = t("pending");
        if (tries < 60) setTimeout(function () { poll(statusUrl, status, tries + 1); }, 1000);
        else status.textContent = t("still_pending");
      })
      .catch(function () { status.textContent = t("no_server"); });
  }

  document.querySelectorAll("button[data-job]").forEach(function (button) {
    button.addEventListener("click", function () {
      var status = button.parentElement.querySelector(".job-status");
      status.textContent = t("pending");
      fetch(button.dataset.job, {
        method: "POST",
        credentials: "same-origin",
        headers: { "X-CSRFToken": token ? token.value : "", Accept: "application/json" },
      })
        .then(function (r) {
          var location = r.headers.get("Location");
          return r.json().then(function (body) { return { body: body, location: location }; });
        })
        .then(function (answer) {
          var url = answer.body.url || answer.location;
          if (answer.body.status === "ready" && answer.body.download) return link(status, answer.body.download);
          if (!url) { status.textContent = answer.body.error || t("not_available"); return; }
          poll(url, status, 0);
        })
        .catch(function () { status.textContent = t("no_server"); });
    });
  });
})();
