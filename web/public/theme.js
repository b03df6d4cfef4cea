/* global document, window */
// The theme before the first paint: a stored choice (dark or light only), else the system's. A file
// rather than an inline script, so that the Content-Security-Policy allows scripts from this origin only.
(() => {
  let stored = null;
  try {
    stored = localStorage.getItem('theme');
  } catch {
    // Storage refused (a private window, a blocked site): the system's choice it is.
  }
  const theme = stored === 'dark' || stored === 'light' ? stored : window.matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
  document.documentElement.dataset.theme = theme;
})();
