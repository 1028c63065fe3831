// The site as an installed app: the service worker (/sw.js, games/web/app.py) looks after
// the pages for offline use. This page is kept at once, since the worker did not see it
// load the first time; a signed-out page (data-forget-pages) empties what was kept.
(function () {
  "use strict";
  if (!("serviceWorker" in navigator)) return;
  var forget = document.body.hasAttribute("data-forget-pages");
  navigator.serviceWorker.register("/sw.js", { scope: "/" }).then(function () {
    return navigator.serviceWorker.ready;
  }).then(function (registration) {
    var worker = registration.active;
    if (!worker) return;
    if (forget) worker.postMessage({ forget: true });
    else if (navigator.onLine) worker.postMessage({ keep: location.pathname + location.search });
  }).catch(function () { /* an app without offline pages: the site still works */ });
})();
