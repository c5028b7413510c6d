// Stand-in of Freshworks' app client ({{{appclient}}} in app/index.html) for the browser tests and the screenshots:
// exactly the calls Gatehouse's app makes — app.initialized(), client.data.get("ticket" | "domainName"),
// client.request.invokeTemplate(), client.instance.resize() and client.events.on("app.activated", …), which fires
// once. invokeTemplate() hands the template's name and options to "Freshworks' servers"
// (https://freshworks-proxy.test), which the test answers from Node (tests/support/e2e/helpdesk.ts) with
// config/requests.json and the installation parameters: the secure ones never come to this page. The ticket comes
// from window.__helpdeskFixture.
(function () {
  "use strict";
  var fixture = window.__helpdeskFixture;
  var handlers = {};
  var calls = (window.__helpdeskCalls = []);

  function fire(name, data) {
    (handlers[name] || []).forEach(function (handler) {
      handler(data);
    });
  }

  var client = {
    data: {
      get: function (name) {
        calls.push(["data.get", name]);
        if (!(name in fixture.data)) return Promise.reject({ message: "Unknown data object " + name });
        var answer = {};
        answer[name] = fixture.data[name];
        return Promise.resolve(answer);
      },
    },
    request: {
      invokeTemplate: function (name, options) {
        calls.push(["invokeTemplate", name]);
        return fetch("https://freshworks-proxy.test/invoke", {
          method: "POST",
          body: JSON.stringify({ name: name, options: options || {} }),
        }).then(
          function (proxied) {
            return proxied.json().then(function (answer) {
              if (answer.status >= 200 && answer.status < 300) return answer;
              throw answer;
            });
          },
          function () {
            throw { status: 502, headers: {}, response: "", errorSource: "PLATFORM" };
          },
        );
      },
    },
    instance: {
      resize: function (size) {
        calls.push(["resize", size]);
        return Promise.resolve();
      },
    },
    events: {
      on: function (name, handler) {
        (handlers[name] = handlers[name] || []).push(handler);
      },
    },
  };

  window.app = {
    initialized: function () {
      setTimeout(function () {
        fire("app.activated");
      }, 0);
      return Promise.resolve(client);
    },
  };
  window.__helpdeskFire = fire;
})();
