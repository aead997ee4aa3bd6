/**
 * The pages of the in-frame editor tests: a customer page with regions of every kind and a hostile
 * script, and the parent page that frames it the way the editor does (sandbox="allow-scripts",
 * another origin) and talks to it over a MessageChannel.
 */

export const GIF = "data:image/gif;base64,R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7";
export const PNG = "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";

/**
 * Tries every way a page script has at the editor's channel, and records what it got in
 * `window.__hostile`: ports it saw (other than its own), messages it read, and what its own fake
 * channels were answered. It keeps sending synthetic Ctrl+S and forged messages on anything it holds.
 */
export const HOSTILE_SCRIPT = String.raw`
(function () {
  var H = (window.__hostile = { ports: [], seen: [], ownAnswers: [], errors: [], listenersSeen: 0 });
  var own = new Set();
  var init = { protocol: "sitecraft-editor", version: 1, type: "init", locale: "en", strings: {} };
  function grab(port) { if (port && !own.has(port) && H.ports.indexOf(port) < 0) H.ports.push(port); }
  try {
    var portsGet = Object.getOwnPropertyDescriptor(MessageEvent.prototype, "ports").get;
    Object.defineProperty(MessageEvent.prototype, "ports", { configurable: true, get: function () {
      var list = Reflect.apply(portsGet, this, []); for (var i = 0; i < list.length; i++) grab(list[i]); return list; } });
    var dataGet = Object.getOwnPropertyDescriptor(MessageEvent.prototype, "data").get;
    Object.defineProperty(MessageEvent.prototype, "data", { configurable: true, get: function () {
      var data = Reflect.apply(dataGet, this, []); H.seen.push(data); return data; } });
    var post = MessagePort.prototype.postMessage;
    MessagePort.prototype.postMessage = function (message) {
      grab(this);
      var forged = Object.assign({}, message, { forged: true });
      return Reflect.apply(post, this, [forged]);
    };
    var start = MessagePort.prototype.start;
    MessagePort.prototype.start = function () { grab(this); return Reflect.apply(start, this, []); };
    var add = EventTarget.prototype.addEventListener;
    EventTarget.prototype.addEventListener = function (type, fn, options) {
      if (this instanceof MessagePort) grab(this);
      H.listenersSeen++;
      return Reflect.apply(add, this, [type, fn, options]);
    };
    var call = Function.prototype.call;
    Function.prototype.call = function (self) {
      if (self instanceof MessagePort) grab(self);
      if (self instanceof MessageEvent) { try { var p = Reflect.apply(portsGet, self, []); for (var i = 0; i < p.length; i++) grab(p[i]); } catch (e) {} }
      return Reflect.apply(call, this, arguments);
    };
    var listener = function (event) { H.seen.push(event.data); };
    window.addEventListener("message", listener, true);
    window.addEventListener("message", listener, false);
    document.addEventListener("message", listener, true);
    window.onmessage = listener;

    // A fake init from this window, and a synthetic one that claims to come from the parent.
    var mine = new MessageChannel();
    own.add(mine.port1); own.add(mine.port2);
    Reflect.apply(add, mine.port1, ["message", function (e) { H.ownAnswers.push(Reflect.apply(dataGet, e, [])); }]);
    Reflect.apply(start, mine.port1, []);
    window.postMessage(init, "*", [mine.port2]);
    var claimed = new MessageChannel();
    own.add(claimed.port1); own.add(claimed.port2);
    Reflect.apply(add, claimed.port1, ["message", function (e) { H.ownAnswers.push(Reflect.apply(dataGet, e, [])); }]);
    Reflect.apply(start, claimed.port1, []);
    window.__claimInit = function (origin) {
      window.dispatchEvent(new MessageEvent("message", { data: init, ports: [claimed.port2], source: window.parent, origin: origin }));
    };
    window.__claimInit(__APP_ORIGIN__);

    // Synthetic Ctrl+S, now and again and again; forged saves to the parent window and on every port it holds.
    window.__fireCtrlS = function () {
      var targets = [window, document, document.body, document.activeElement];
      for (var i = 0; i < targets.length; i++) {
        if (targets[i]) targets[i].dispatchEvent(new KeyboardEvent("keydown", { key: "s", code: "KeyS", ctrlKey: true, metaKey: true, bubbles: true, cancelable: true }));
      }
    };
    window.__fireCtrlS();
    document.addEventListener("DOMContentLoaded", window.__fireCtrlS);
    setInterval(function () {
      try {
        window.__fireCtrlS();
        window.parent.postMessage({ protocol: "sitecraft-editor", version: 1, type: "shortcut", name: "save", forged: true }, "*");
        for (var i = 0; i < H.ports.length; i++) Reflect.apply(post, H.ports[i], [{ protocol: "sitecraft-editor", version: 1, type: "shortcut", name: "save", forged: true }]);
      } catch (e) { H.errors.push(String(e)); }
    }, 100);
  } catch (e) {
    H.errors.push(String(e && e.stack || e));
  }
})();
`;

/** The customer page's body: every region type, the range comments, the three problems. */
export const BODY = `<h1 class="editable" id="title">Fresh <em>bread</em> daily</h1>
<div class="editable" id="intro">
  <p>Our bakery opened in 1984.</p>
  <p>We bake <strong>every</strong> morning.</p>
</div>
<p class="cms-editable cms-editable-text" id="tagline">Since 1984 &amp; counting</p>
<a class="editable" id="cta" href="/order" title="Order">Order <b>now</b></a>
<img class="editable" id="hero" src="${GIF}" alt="A loaf">
<section class="editable" id="banner" data-cms-background="" style="background-color: #ffeecc; background-size: cover">Banner</section>
<div class="editable editable-gallery" id="photos" data-cms-element="ul"><ul><li><img src="${GIF}" alt="One"></li></ul></div>
<ul class="editable" id="menu">
  <li class="repeatable">Rye</li>
  <li class="repeatable">Sourdough</li>
  <li class="cms-repeatable">Baguette</li>
</ul>
<div class="editable" id="story">
  <p>Before the range.</p>
  <!-- cms-ignore --><div id="widget">Widget <b>as written</b></div><!-- /cms-ignore -->
  <!-- cms-lock --><p>Locked paragraph.</p><!-- cms-unlock -->
  <div class="uneditable"><p>Uneditable island.</p></div>
  <pre data-cms-code="JavaScript"><code>let x = 1;</code></pre>
  <div data-cms-embed="https://video.example/1"><span>Video</span></div>
  <p>See <a href="https://example.com/a">example</a> and the anchor <a id="here"></a>.</p>
</div>
<div class="editable" id="dup">One</div>
<div class="editable" id="dup">Two</div>
<div class="editable">No id</div>
<video class="editable" id="clip"></video>
<!-- cms-ignore --><div class="editable" id="hidden">Not a region</div><!-- /cms-ignore -->
<div class="editable cms-global" id="footer"><p>Footer <span class="editable" id="nested">not a region either</span></p></div>
<script>document.getElementById("widget").textContent = "Widget rendered by a page script";</script>
`;

/** `appOrigin`: the origin the hostile script claims its synthetic `init` came from. */
export function customerPage(scriptTag: string, appOrigin: string): string {
  const hostile = HOSTILE_SCRIPT.replace("__APP_ORIGIN__", JSON.stringify(appOrigin));
  return `<!doctype html>
<html><head>${scriptTag}<meta charset="utf-8"><script>${hostile}</script><title>Bakery</title></head>
<body>
${BODY}</body></html>`;
}

/**
 * The editor's parent, reduced to the protocol: frames the page, posts `init` with a port on load,
 * records everything that arrives on the port (`window.received`) or on its own window
 * (`window.windowMessages`), and sends with `window.toFrame(message)`.
 */
export function parentPage(srcdoc: string): string {
  const escaped = srcdoc.replace(/&/g, "&amp;").replace(/"/g, "&quot;");
  return `<!doctype html><html><head><title>Parent</title></head><body style="margin:0">
<iframe id="frame" sandbox="allow-scripts" style="width:1000px;height:1400px;border:0" srcdoc="${escaped}"></iframe>
<script>
  window.received = [];
  window.windowMessages = [];
  window.addEventListener("message", function (e) { window.windowMessages.push(e.data); });
  var channel = new MessageChannel();
  channel.port1.onmessage = function (e) { window.received.push(e.data); };
  window.toFrame = function (message) {
    channel.port1.postMessage(Object.assign({ protocol: "sitecraft-editor", version: 1 }, message));
  };
  document.getElementById("frame").addEventListener("load", function () {
    document.getElementById("frame").contentWindow.postMessage(
      { protocol: "sitecraft-editor", version: 1, type: "init", locale: "en", strings: { marker: "from-the-parent" } }, "*", [channel.port2]);
  });
</script></body></html>`;
}
