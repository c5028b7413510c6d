// Gatehouse's purchase check in Zendesk's ticket sidebar (Zendesk Apps framework v2). Reads the ticket's subject and
// comments through ZAFClient, asks Gatehouse through Zendesk's proxy with client.request — `secure: true`, so
// Zendesk's servers put the token from the app's secure settings where {{setting.token}} stands; this page never
// has it — and shows the verdicts (../../shared/verdicts.js, copied beside this file when packed).
(function () {
  "use strict";

  var V = window.GatehouseVerdicts;
  var client = ZAFClient.init();
  var root = document.getElementById("gatehouse");
  var card = V.mount(root, check);
  var latest = 0;

  function resize() {
    client.invoke("resize", {
      width: "100%",
      height: Math.ceil(root.getBoundingClientRect().bottom) + "px",
    });
  }

  function lookup(base, body) {
    return client.request({
      url: base + "/api/helpdesk/lookup",
      type: "POST",
      contentType: "application/json",
      headers: { Authorization: "Bearer {{setting.token}}" },
      secure: true,
      httpCompleteResponse: true,
      data: JSON.stringify(body),
    });
  }

  /** A rejected request as the card reads it: Gatehouse's own error, or no answer from Gatehouse at all. */
  function failureOf(response) {
    var body = response && (response.responseJSON || V.parseJson(response.responseText));
    var status = response && response.status;
    var fromGatehouse = Boolean(body && body.error && body.error.code);
    return {
      status: status,
      body: body,
      retryAfter: V.headerOf(response && response.headers, "Retry-After"),
      network: !status || !fromGatehouse,
    };
  }

  function check() {
    var run = ++latest;
    card.loading();
    resize();
    Promise.all([
      client.metadata(),
      client.get(["ticket.id", "ticket.subject", "ticket.comments", "currentAccount.subdomain"]),
    ])
      .then(function (results) {
        var settings = results[0].settings || {};
        var data = results[1];
        var base = String(settings.gatehouse_url || "").replace(/\/+$/, "");
        var messages = (data["ticket.comments"] || []).map(function (comment) {
          return V.textOfHtml(comment.value || "");
        });
        var id = String(data["ticket.id"]);
        var ticket = { system: "zendesk", id: id };
        if (data["currentAccount.subdomain"]) {
          ticket.url = "https://" + data["currentAccount.subdomain"] + ".zendesk.com/agent/tickets/" + id;
        }
        return lookup(base, { text: V.ticketText(data["ticket.subject"], messages), ticket: ticket });
      })
      .then(
        function (response) {
          if (run !== latest) return;
          var body = response.responseJSON || V.parseJson(response.responseText);
          if (body && body.data) card.show(body.data);
          else card.fail(failureOf(response));
        },
        function (response) {
          if (run === latest) card.fail(failureOf(response));
        },
      )
      .then(resize);
  }

  client.on("app.registered", check);
  client.on("ticket.comments.changed", check);
  client.on("ticket.updated", check);
})();
