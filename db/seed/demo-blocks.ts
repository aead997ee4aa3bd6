/**
 * The blocks and the page list of the demo site (the files under `demo-site/`). Every page that
 * includes a block holds its `source` byte for byte between `<!-- cms-include "Name" -->` and
 * `<!-- /cms-include -->`. Block sources carry no `id` attributes (BLOCKS_MUST_NOT_HAVE_IDS); the
 * comment directives of the editing model mark what stays editable inside them.
 */

const openingHours = `<div class="hours-card">
  <h3>Opening Hours</h3>
  <!-- cms-lock -->
  <table class="hours-table">
    <tbody>
      <tr><th scope="row">Monday – Friday</th><td>7:00 – 18:00</td></tr>
      <tr><th scope="row">Saturday</th><td>8:00 – 17:00</td></tr>
      <tr><th scope="row">Sunday</th><td>9:00 – 14:00</td></tr>
    </tbody>
  </table>
  <!-- cms-unlock -->
  <!-- cms-editable -->
  <p class="hours-note">Bank holidays 9:00&nbsp;–&nbsp;13:00. The kitchen stops serving 30&nbsp;minutes before we close.</p>
</div>`;

const callToAction = `<aside class="cta">
  <!-- cms-editable -->
  <h2>Hungry yet?</h2>
  <!-- cms-editable -->
  <p>Pop in for a warm croissant, or order a whole cake for the weekend. We’ll put the kettle on.</p>
  <!-- cms-lock -->
  <p class="cta-actions"><a class="button" href="menu.html">See the menu</a> <a class="button button-ghost" href="contact.html">Order a cake</a></p>
  <!-- cms-unlock -->
</aside>`;

const testimonial = `<!-- cms-repeatable -->
<blockquote class="testimonial">
  <!-- cms-editable -->
  <p>“The cinnamon buns are worth the queue. I’ve stopped pretending I only came in for bread.”</p>
  <!-- cms-editable -->
  <footer>— Orla Byrne, Kilbarrow</footer>
</blockquote>`;

export const demoBlocks: { name: string; description: string; source: string }[] = [
  { name: "Opening Hours", description: "The weekly opening hours table with a note for bank holidays.", source: openingHours },
  { name: "Call to Action", description: "A dark banner inviting visitors to see the menu or order a cake.", source: callToAction },
  { name: "Testimonial", description: "A customer quote with the customer's name.", source: testimonial },
];

export const demoSitePages: { name: string; path: string; isPinned?: boolean }[] = [
  { name: "Homepage", path: "index.html", isPinned: true },
  { name: "Our Story", path: "about.html" },
  { name: "Menu", path: "menu.html" },
  { name: "Visit & Contact", path: "contact.html" },
  { name: "Hello From Our New Website", path: "blog/first-post.html" },
  { name: "Stylesheet", path: "css/style.css" },
];
