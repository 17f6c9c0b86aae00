// What breaks a page's layout, as a person holding the device would see it (tests/browser_support.py: layout):
//   sideways: the page scrolls sideways (the document wider than the window);
//   overlap:  a line of text drawn over another (two text fragments' boxes crossing by more than 2 px both ways);
//   outside:  a line of text running out of the box drawn around it (the nearest element with a border, a
//             background other than its parent's, or clipping: overflow other than visible), or out of the window.
// Each problem names the texts (their first 40 characters) and where.  Text nobody can see is left out: in a closed
// <details>, display:none, visibility:hidden, zero opacity, the screen readers' .sr-only, or clipped to nothing.
// Evaluated by page.evaluate: a function of the part of the page to look at (a selector; none: the whole page, and
// whether it scrolls sideways), no globals left behind.
((within) => {
  const problems = [];
  const doc = document.documentElement;
  const width = window.innerWidth;
  const root = within ? document.querySelector(within) : document.body;
  if (!root) return [{kind: "missing", what: `nothing matches ${within}`}];
  if (!within && doc.scrollWidth > width) {
    problems.push({kind: "sideways", what: `the page is ${doc.scrollWidth}px wide in a ${width}px window`});
  }
  const shown = new Map();
  const visible = (el) => {
    if (shown.has(el)) return shown.get(el);
    let answer = true;
    const style = getComputedStyle(el);
    if (style.display === "none" || style.visibility === "hidden" || style.visibility === "collapse" ||
        parseFloat(style.opacity) === 0) answer = false;
    else if (el.parentElement) answer = visible(el.parentElement);
    shown.set(el, answer);
    return answer;
  };
  const boxed = new Map();  // an element -> the box its text must stay in
  const isBox = (el) => {
    const style = getComputedStyle(el);
    if (["BUTTON", "INPUT", "SELECT", "TEXTAREA", "SUMMARY"].includes(el.tagName)) return true;
    if (style.overflowX !== "visible" || style.overflowY !== "visible") return true;
    const border = ["Top", "Right", "Bottom", "Left"].some(
      (side) => parseFloat(style[`border${side}Width`]) > 0 && style[`border${side}Style`] !== "none");
    if (border) return true;
    const bg = style.backgroundColor;
    return bg && bg !== "rgba(0, 0, 0, 0)" && bg !== "transparent" && el !== document.body && el !== doc;
  };
  const boxOf = (el) => {
    if (boxed.has(el)) return boxed.get(el);
    let found = null;
    for (let at = el; at && at !== document.body; at = at.parentElement) {
      if (isBox(at)) { found = at; break; }
    }
    boxed.set(el, found);
    return found;
  };
  const fragments = [];
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const range = document.createRange();
  while (walker.nextNode()) {
    const node = walker.currentNode;
    const text = node.textContent.replace(/\s+/g, " ").trim();
    const el = node.parentElement;
    if (!text || !el || ["SCRIPT", "STYLE", "NOSCRIPT", "TEMPLATE", "OPTION"].includes(el.tagName)) continue;
    if (!visible(el) || el.closest(".sr-only, [hidden], details:not([open]) > :not(summary)")) continue;
    range.selectNodeContents(node);
    for (const r of range.getClientRects()) {
      if (r.width < 1 || r.height < 1) continue;
      fragments.push({left: r.left, right: r.right, top: r.top, bottom: r.bottom, text, el});
    }
  }
  const says = (f) => JSON.stringify(f.text.slice(0, 40));
  const where = (f) => `at ${Math.round(f.left)},${Math.round(f.top + window.scrollY)}`;
  // out of its box (or of the window: text the page cannot scroll to)
  for (const f of fragments) {
    if (f.right > width + 1 || f.left < -1) {
      problems.push({kind: "outside", what: `${says(f)} ${where(f)} runs out of the ${width}px window`});
      continue;
    }
    const box = boxOf(f.el);
    if (!box) continue;
    const b = box.getBoundingClientRect();
    const tol = 1.5;
    if (f.left < b.left - tol || f.right > b.right + tol || f.top < b.top - tol || f.bottom > b.bottom + tol) {
      // clipped to nothing (a scrolled list's hidden rows): nobody sees it, nothing to say
      if (f.right <= b.left || f.left >= b.right || f.bottom <= b.top || f.top >= b.bottom) {
        const style = getComputedStyle(box);
        if (style.overflowX !== "visible" || style.overflowY !== "visible") continue;
      }
      const name = box.id ? `#${box.id}` : `<${box.tagName.toLowerCase()}${box.className ? " ." + String(box.className).split(" ")[0] : ""}>`;
      problems.push({kind: "outside", what: `${says(f)} ${where(f)} runs out of its box ${name}`});
    }
  }
  // one line of text over another
  fragments.sort((a, b) => a.top - b.top);
  for (let i = 0; i < fragments.length; i++) {
    const a = fragments[i];
    for (let j = i + 1; j < fragments.length && fragments[j].top < a.bottom - 2; j++) {
      const b = fragments[j];
      if (a.el === b.el && a.text === b.text) continue;  // one text's own lines
      const across = Math.min(a.right, b.right) - Math.max(a.left, b.left);
      const down = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
      if (across > 2 && down > 2) {
        problems.push({kind: "overlap", what: `${says(a)} and ${says(b)} overlap ${where(b)}`});
      }
    }
  }
  return problems;
})
