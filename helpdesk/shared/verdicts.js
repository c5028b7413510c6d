// Gatehouse's purchase check beside a helpdesk ticket: the card both sidebar apps show (Zendesk, Freshdesk). Each
// app reads its ticket through its vendor's SDK and asks Gatehouse (POST /api/helpdesk/lookup) through its
// vendor's proxy, which adds the token kept in the app's secure settings; this file turns the ticket into text and
// the answer (or the failure) into words. Every text from upstream is set with textContent, never as HTML.
// Plain browser JavaScript without a build step: the pack script copies it into each app as it is.
(function () {
  "use strict";

  var BLOCKS = "p,div,li,tr,blockquote,pre,h1,h2,h3,h4,h5,h6,table,ul,ol";

  /** The text of a message's HTML, read by an inert parser: no script runs, no image loads. */
  function textOfHtml(html) {
    var doc = new DOMParser().parseFromString(String(html), "text/html");
    doc.querySelectorAll("br").forEach(function (br) {
      br.replaceWith("\n");
    });
    doc.querySelectorAll(BLOCKS).forEach(function (block) {
      block.append("\n");
    });
    return (doc.body.textContent || "").replace(/\n{3,}/g, "\n\n").trim();
  }

  /** Gatehouse reads at most this much of a ticket (HELPDESK_MAX_TEXT_LENGTH). */
  var MAX_TEXT = 100000;

  function nonEmpty(part) {
    return typeof part === "string" && part.trim() !== "";
  }

  /**
   * The subject and the messages (oldest first) as one text, as the lookup takes it; the oldest messages are left
   * out of a ticket too long for Gatehouse, the subject never.
   */
  function ticketText(subject, messages) {
    var kept = messages.filter(nonEmpty);
    var text = [subject].concat(kept).filter(nonEmpty).join("\n\n");
    while (text.length > MAX_TEXT && kept.length > 1) {
      kept.shift();
      text = [subject].concat(kept).filter(nonEmpty).join("\n\n");
    }
    return text.slice(0, MAX_TEXT);
  }

  function formatDate(iso) {
    return new Date(iso).toLocaleDateString("en-GB", { day: "numeric", month: "short", year: "numeric" });
  }

  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  /** "Support active until 3 Mar 2027", "Support expired on …", "No support". */
  function supportWords(verdict) {
    var until = verdict.purchase && verdict.purchase.supported_until;
    if (verdict.support === "active" && until) return "Support active until " + formatDate(until);
    if (verdict.support === "expired" && until) return "Support expired on " + formatDate(until);
    return "No support";
  }

  /** "Checked 3 times before, first on 1 Mar 2026 by sam@example.com", or "First check of this code". */
  function historyWords(history) {
    if (!history || history.previous_checks === 0) return "First check of this code.";
    var words =
      "Checked " + (history.previous_checks === 1 ? "1 time" : history.previous_checks + " times") + " before";
    if (history.first_checked_at) words += ", first on " + formatDate(history.first_checked_at);
    if (history.first_checked_by) words += " by " + history.first_checked_by;
    return words + ".";
  }

  function plural(n, one, many) {
    return n + " " + (n === 1 ? one : many);
  }

  /** The renewal link when it is an https URL (anything else — javascript:, http:, a relative path — is left out). */
  function renewalHref(url) {
    if (typeof url !== "string" || !/^https:\/\//i.test(url)) return null;
    try {
      var parsed = new URL(url);
      return parsed.protocol === "https:" ? parsed.href : null;
    } catch {
      return null;
    }
  }

  /**
   * What Gatehouse knows of the purchase over its life, as lines under the verdict: support ending soon, the item's
   * renewal link (https only), a code possibly shared. Each line is { kind, text } (and href for the link).
   */
  function lifecycleLines(verdict) {
    var lifecycle = verdict.lifecycle || {};
    var lines = [];
    var days = lifecycle.support_ends_in_days;
    if (typeof days === "number") {
      lines.push({
        kind: "ending",
        text: "Support ends " + (days === 0 ? "today" : "in " + plural(days, "day", "days")) + ".",
      });
    }
    var href = renewalHref(lifecycle.renewal_url);
    if (href) lines.push({ kind: "renewal", text: "Renew support", href: href });
    var shared = lifecycle.shared_suspected;
    if (shared) {
      lines.push({
        kind: "shared",
        text:
          "Possibly shared: checked from " +
          [
            plural(shared.tickets, "helpdesk ticket", "helpdesk tickets"),
            plural(shared.tokens, "API token", "API tokens"),
            plural(shared.addresses, "address", "addresses"),
          ].join(", ") +
          " in the last " +
          plural(shared.window_days, "day", "days") +
          ".",
      });
    }
    return lines;
  }

  /** The verdict's word and sentence: { word, text, stale } (stale: the last verdict, the item service down now). */
  function verdictWords(verdict) {
    if (verdict.outcome === "valid" && verdict.purchase) {
      return { word: "Valid", text: " — " + verdict.purchase.license_type + ", " + verdict.purchase.item.name };
    }
    if (verdict.outcome === "revoked") {
      return {
        word: "Revoked",
        text: ": " + (verdict.message || "valid before, not valid now: the sale was probably refunded or reversed."),
      };
    }
    if (verdict.outcome === "invalid") {
      return { word: "Not valid", text: ": " + (verdict.message || "the item service does not know this code.") };
    }
    if (verdict.outcome === "not_checked") {
      var why = (verdict.message || "").replace(/^Not checked:\s*/i, "");
      return {
        word: "Not checked",
        text: ": " + (why ? why.charAt(0).toLowerCase() + why.slice(1) : "ask the customer for the whole code."),
      };
    }
    if (verdict.last_verdict) {
      return { word: "Not fresh", text: ": " + verdict.message, stale: true };
    }
    return {
      word: "Could not check",
      text: ": " + (verdict.message || "the item service did not answer; try again in a minute."),
    };
  }

  /** One code's card: its last 4 characters, the verdict in words (never by colour alone), the history. */
  function verdictItem(verdict) {
    var item = el("li", "gh-verdict gh-verdict--" + verdict.outcome);
    item.append(el("p", "gh-code", "Code …" + verdict.code_last4));
    var words = verdictWords(verdict);
    if (words.stale) item.className += " gh-verdict--stale";
    var state = el("p", "gh-state");
    state.append(el("strong", "gh-word", words.word));
    state.append(words.text);
    item.append(state);
    if (verdict.outcome === "valid" && verdict.purchase) {
      item.append(el("p", "gh-support gh-support--" + (verdict.support || "none"), supportWords(verdict)));
    }
    lifecycleLines(verdict).forEach(function (line) {
      var p = el("p", "gh-lifecycle gh-lifecycle--" + line.kind);
      if (line.href) {
        var link = el("a", "gh-link", line.text);
        link.href = line.href;
        link.target = "_blank";
        link.rel = "noopener noreferrer";
        p.append(link);
      } else {
        p.textContent = line.text;
      }
      item.append(p);
    });
    if (verdict.almost) {
      item.append(
        el(
          "p",
          "gh-almost",
          "The ticket has an almost-code: " +
            verdict.almost.slip +
            (/[.?!]$/.test(verdict.almost.slip) ? "" : ".") +
            (verdict.almost.corrected ? " This verdict is of the corrected code." : ""),
        ),
      );
    }
    if (verdict.outcome !== "not_checked") item.append(el("p", "gh-history", historyWords(verdict.history)));
    return item;
  }

  /** The sentence an agent can act on, for a lookup that did not answer 200. */
  function failureWords(failure) {
    if (failure.freshdesk) {
      return "Freshdesk did not give this ticket's replies. Check the Freshdesk address and API key in the app's settings.";
    }
    if (failure.network) {
      return "Gatehouse could not be reached. Check that the Gatehouse address in the app's settings is right and that Gatehouse is up, then check again.";
    }
    var code = failure.body && failure.body.error && failure.body.error.code;
    var message = failure.body && failure.body.error && failure.body.error.message;
    switch (failure.status) {
      case 401:
        if (code === "token_revoked") {
          return "The token in the app's settings has been revoked. Ask a Gatehouse admin for a new one (Admin → Helpdesk) and put it in the app's settings.";
        }
        if (code === "token_expired") {
          return "The token in the app's settings has expired. Ask a Gatehouse admin for a new one (Admin → Helpdesk) and put it in the app's settings.";
        }
        return "Gatehouse does not know the token in the app's settings. Check that it was copied whole (it starts with gth_), or ask a Gatehouse admin for a new one (Admin → Helpdesk).";
      case 403:
        if (code === "insufficient_scope") {
          return "The token in the app's settings may not check purchases. Ask a Gatehouse admin for a token with the scope purchases:check (Admin → Helpdesk).";
        }
        return "Gatehouse refused the request" + (message ? ": " + message : ".") + " Ask a Gatehouse admin.";
      case 429: {
        var seconds = Number(failure.retryAfter);
        return seconds > 0
          ? "Too many checks just now. Check again in " + seconds + (seconds === 1 ? " second." : " seconds.")
          : "Too many checks just now. Check again in a minute.";
      }
      case 503:
        if (code === "area_not_configured") {
          return "Gatehouse has no key for the item service yet, so it cannot check codes. Ask a Gatehouse admin to set it (Admin → Upstream).";
        }
        return "Gatehouse or the item service is busy or down. Check again in a minute.";
      case 400:
        return "Gatehouse could not read this ticket" + (message ? ": " + message : ".");
      default:
        if (failure.status >= 500) {
          return "The item service did not answer" + (message ? ": " + message : ".") + " Check again in a minute.";
        }
        return "The check failed (HTTP " + failure.status + ")" + (message ? ": " + message : ".");
    }
  }

  /**
   * The card's frame inside `root`: a heading, a live status line, the list of verdicts and a "Check again"
   * button. Returns the functions that fill it.
   */
  function mount(root, onCheckAgain) {
    root.textContent = "";
    root.append(el("h1", "gh-title", "Purchase codes"));
    var status = el("p", "gh-status");
    status.setAttribute("role", "status");
    var list = el("ul", "gh-list");
    list.setAttribute("aria-label", "Purchase codes in this ticket");
    var again = el("button", "gh-again", "Check again");
    again.type = "button";
    again.addEventListener("click", onCheckAgain);
    root.append(status, list, again);

    return {
      loading: function () {
        root.setAttribute("aria-busy", "true");
        again.disabled = true;
        status.className = "gh-status";
        status.textContent = "Checking the purchase codes in this ticket…";
      },
      show: function (lookup) {
        list.textContent = "";
        lookup.codes.forEach(function (verdict) {
          list.append(verdictItem(verdict));
        });
        var words;
        if (lookup.codes.length === 0) words = "No purchase code in this ticket.";
        else words = lookup.codes.length === 1 ? "1 code checked." : lookup.codes.length + " codes checked.";
        if (lookup.not_checked > 0) {
          words +=
            " " + lookup.not_checked + (lookup.not_checked === 1 ? " more code" : " more codes") + " not checked.";
        }
        status.className = "gh-status";
        status.textContent = words;
        list.hidden = lookup.codes.length === 0;
        root.removeAttribute("aria-busy");
        again.disabled = false;
      },
      fail: function (failure) {
        list.textContent = "";
        list.hidden = true;
        status.className = "gh-status gh-status--error";
        status.textContent = failureWords(failure);
        root.removeAttribute("aria-busy");
        again.disabled = false;
      },
    };
  }

  /** The header's value in a headers object of any case (the vendors' proxies differ). */
  function headerOf(headers, name) {
    if (!headers) return undefined;
    var wanted = name.toLowerCase();
    for (var key in headers) {
      if (Object.prototype.hasOwnProperty.call(headers, key) && key.toLowerCase() === wanted) return headers[key];
    }
    return undefined;
  }

  /** JSON text to a value, or null when it is not JSON (a proxy's own error page). */
  function parseJson(text) {
    if (typeof text !== "string") return text === undefined ? null : text;
    try {
      return JSON.parse(text);
    } catch {
      return null;
    }
  }

  window.GatehouseVerdicts = {
    textOfHtml: textOfHtml,
    ticketText: ticketText,
    failureWords: failureWords,
    verdictWords: verdictWords,
    lifecycleLines: lifecycleLines,
    renewalHref: renewalHref,
    headerOf: headerOf,
    parseJson: parseJson,
    mount: mount,
  };
})();
