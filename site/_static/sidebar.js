// The site's sidebar opens at its top. pydata-sphinx-theme scrolls it, on the first page a reader
// opens, to put the current page's entry a quarter down from its top; on a page listed low in the
// sidebar (api.html at 1280x900) that hid its first entries, cut through, above the window. A
// position the reader scrolled to and the theme remembers from page to page is left as it is.
(() => {
  const reset = () => {
    const sidebar = document.querySelector("div.bd-sidebar-primary");
    if (sidebar && sessionStorage.getItem("sidebar-scroll-top") === null) {
      sidebar.scrollTop = 0;
    }
  };
  // after the theme's own script, deferred like this one but later in the page, which scrolls
  // the sidebar as it runs: every deferred script has run when DOMContentLoaded fires
  if (document.readyState === "complete") {
    reset();
  } else {
    document.addEventListener("DOMContentLoaded", reset);
  }
})();
