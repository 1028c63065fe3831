// Forms that act at once and are hard to take back (close a session, void a deal) carry
// their question in data-confirm: the browser asks it before the form is sent. Without
// script the form is sent as it is.
(function () {
  "use strict";
  document.addEventListener("submit", function (event) {
    var question = event.target.dataset && event.target.dataset.confirm;
    if (question && !window.confirm(question)) event.preventDefault();
  }, true);
})();
